// SPDX-License-Identifier: Apache-2.0
// Element-wise loops that count down, as C code often writes them (`for (i = n - 1; i >= 0; i--)`):
// each iteration stores only its own elements, so the order does not matter and the kernel runs
// the range from the bottom; the counter is left one below the range, as the loop leaves it.
// Counting down while accumulating or stepping a pointer, an unsigned counter counting down, and
// a shift that carries values along (read at i - 1, written at i) stay loops.
#include <stdint.h>
#include <string.h>

static float out_f[100002];
static int16_t out_s[100002];

/* NaNs as one canonical NaN: their payloads and signs are not specified by C */
static uint64_t hashf(const float* v, int count, uint64_t h) {
    int k;
    // expect: not lifted:
    for (k = 0; k < count; k++) {
        uint32_t bits;
        memcpy(&bits, &v[k], 4);
        if (v[k] != v[k]) bits = 0x7fc00000u;
        h = h * 1000003u + bits;
    }
    return h;
}

uint64_t descending(const float* x, const int16_t* s, int n, float scale) {
    int i, j;
    float acc = 0.0f;
    size_t u;
    if (n < 0) n = 0;
    if (n > 100000) n = 100000;
    memset(out_f, 0, sizeof out_f);
    memset(out_s, 0, sizeof out_s);
    // expect: lifted descending_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = n - 1; i >= 0; i--)
        out_f[i] = x[i] * scale + 1.0f;
    j = i;
    // expect: lifted descending_lifted_2 (map i16 -> i16 (2 inputs, 1 output))
    for (i = n - 1; i > 0; --i) {
        out_s[i] = (int16_t)(s[i] - s[i - 1]);
    }
    // expect: not lifted: its order matters
    for (i = n - 1; i >= 0; i--) {
        out_f[i] += 1.0f;
        acc += x[i];
    }
    // expect: not lifted: unsigned
    for (u = (size_t)n; u > 0; u--)
        out_f[u] = x[u - 1];
    // expect: not lifted:
    for (i = n - 1; i > 0; i--)
        out_f[i] = out_f[i - 1] * 0.5f;
    return hashf(out_f, 100002, 0) + (uint64_t)(uint32_t)j * 7 + (uint64_t)(uint32_t)i * 11 + (acc > 0) + (uint64_t)out_s[n > 2 ? 2 : 0];
}
