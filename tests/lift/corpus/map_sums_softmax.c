// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate --math-ulp 4
// cflags: -fno-math-errno
// diff: tolerance
// min-n: 1
// Softmax as llama2.c writes it, in place: the max, then a loop that stores exp(x - max) and adds
// it up (one map: an in-place output and a reduction output that names it), then the division.
// The float sums are reassociated and exp is within 4 ULP, so the results compare with tolerance.
#include <math.h>

static float buf[100000];

static void softmax(float* x, int size) {
    float max_val = x[0];
    // expect: lifted reduce max f32 -> f32
    for (int i = 1; i < size; i++) {
        if (x[i] > max_val) {
            max_val = x[i];
        }
    }
    float sum = 0.0f;
    // expect: lifted map f32 -> f32 (1 input, 1 output) and reduce add over out0 (f32, 1 input)
    for (int i = 0; i < size; i++) {
        x[i] = expf(x[i] - max_val);
        sum += x[i];
    }
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < size; i++) {
        x[i] /= sum;
    }
}

float softmax_check(const float* x, int n, float* middle, float* last) {
    if (n > 100000) n = 100000;
    float total = 0.0f;
    // expect: lifted map f32 -> f32 (1 input, 1 output) and reduce add over buf (f32, 1 input)
    for (int i = 0; i < n; i++) {
        buf[i] = x[i] * 0.5f;
        total += buf[i];
    }
    softmax(buf, n);
    *middle = buf[n / 2];
    *last = buf[n - 1];
    return total;
}
