// SPDX-License-Identifier: Apache-2.0
// Absolute differences as C spells them: a ternary on the promoted (int) values stored back to the
// narrow type, and the same on unsigned ints (no promotion). The generator recognises each as
// abs_diff: max - min on x86 (three instructions where the select takes four), one uabd/sabd on
// Arm, in the elements' own type instead of int lanes.
#include <stdint.h>

static uint8_t dist8[100000];
static int16_t dist16[100000];
static uint32_t dist32[100000];

int abs_diff(const uint8_t* a, const uint8_t* b, const int16_t* s, const int16_t* t, const uint32_t* u, const uint32_t* v, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> u8 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) dist8[i] = (uint8_t)(a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]);
    // expect: lifted map i16 -> i16 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) dist16[i] = (int16_t)(s[i] < t[i] ? t[i] - s[i] : s[i] - t[i]);
    // expect: lifted map u32 -> u32 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) dist32[i] = u[i] >= v[i] ? u[i] - v[i] : v[i] - u[i];
    int h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 3 + dist8[i] + dist16[i] + (int)dist32[i];
    return h;
}
