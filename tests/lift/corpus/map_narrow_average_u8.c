// SPDX-License-Identifier: Apache-2.0
// Byte arithmetic that needs more than 8 bits on the way (a rounding average's carry, a sum
// shifted back down) but never more than 16: computed in 16-bit lanes, not C's promoted int.
#include <stdint.h>

static uint8_t avg[100000], scaled[100000], picked[100000];
static int8_t diff[100000];
static uint16_t weighted[100000];

uint64_t averages(const uint8_t* a, const uint8_t* b, const int8_t* s, uint8_t bias, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> u8
    for (int i = 0; i < n; ++i) avg[i] = (a[i] + b[i] + 1) >> 1;
    // expect: lifted map u8 -> u8
    for (int i = 0; i < n; ++i) scaled[i] = (a[i] * 3 + b[i] + bias) >> 2;
    // expect: lifted map i8,u8 -> i8
    for (int i = 0; i < n; ++i) diff[i] = (s[i] - (a[i] >> 1)) >> 1;
    // expect: lifted map u8 -> u8
    for (int i = 0; i < n; ++i) picked[i] = (a[i] + 64 > b[i] ? a[i] + 64 : b[i]) >> 1;
    // expect: lifted map u8 -> u16
    for (int i = 0; i < n; ++i) weighted[i] = (a[i] * 200 + b[i] * 55) >> 3;
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 131u + avg[i] + scaled[i] + (uint8_t)diff[i] + picked[i] + weighted[i];
    return h;
}
