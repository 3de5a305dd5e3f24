// SPDX-License-Identifier: Apache-2.0
// Integer division by a power of two, as image code writes averages: libpng's Avg filter `(pp +
// lp) / 2` of bytes promoted to int, and an unsigned `/ 8`, are shifts (C's division truncates
// toward zero, the same as the shift for values that cannot be negative). A signed value that may
// be negative (-7 / 4 is -1, -7 >> 2 is -2), or a product of two shorts in int (which may exceed
// 2^31), stays a division: those loops stay.
#include <stdint.h>
#include <string.h>

static uint8_t avg[100000];
static uint32_t eighth[100000];
static int16_t quarter[100000];
static uint16_t squares[100000];

uint64_t div_pow2(const uint8_t* rp, const uint8_t* pp, const uint32_t* w, const int16_t* s, const uint16_t* u, int n) {
    uint64_t h = 0;
    int i;
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> u8 (3 inputs, 1 output)
    for (i = 1; i < n; i++) avg[i] = (uint8_t)(((int)rp[i] - (((int)pp[i] + (int)rp[i - 1]) / 2)) & 0xff);
    // expect: lifted map u32 -> u32 (1 input, 1 output)
    for (i = 0; i < n; i++) eighth[i] = w[i] / 8u + w[i] / 2;
    // expect: not lifted: an integer division
    for (i = 0; i < n; i++) quarter[i] = (int16_t)(s[i] / 4);
    // expect: not lifted: an integer division
    for (i = 0; i < n; i++) squares[i] = (uint16_t)((u[i] * u[i]) / 4);
    // expect: not lifted:
    for (i = 0; i < n; i++) h = h * 1000003u + avg[i] + eighth[i] + (uint16_t)quarter[i] + squares[i];
    return h;
}
