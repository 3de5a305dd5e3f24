// SPDX-License-Identifier: Apache-2.0
// Loops that store element-wise results and add them up in the same pass, in integers (exact in
// any order): clamped pixels and how many of them are saturated, residuals and their sum of
// squares. One map call each, its reduction outputs combined with the accumulators' values.
#include <stdint.h>

static uint8_t out8[100000];
static int32_t res[100000];

uint64_t clamp_and_count(const int16_t* a, const int16_t* b, int n, int32_t* energy) {
    if (n > 100000) n = 100000;
    int saturated = 3;
    int64_t ss = 0;
    // expect: lifted map i16 -> u8 (1 input, 1 output) and reduce add over select
    for (int i = 0; i < n; i++) {
        int v = a[i] < 0 ? 0 : (a[i] > 255 ? 255 : a[i]);
        out8[i] = (uint8_t)v;
        saturated += out8[i] == 255;
    }
    // expect: lifted map i16 -> i32 (2 inputs, 1 output) and reduce add over
    for (int i = 0; i < n; i++) {
        res[i] = a[i] - b[i];
        ss += (int64_t)res[i] * res[i];
    }
    *energy = (int32_t)(ss >> 7);
    uint64_t h = (uint64_t)saturated;
    // expect: not lifted:
    for (int i = 0; i < n; i++) h = h * 1000003u + out8[i] + (uint64_t)(uint32_t)res[i];
    return h;
}
