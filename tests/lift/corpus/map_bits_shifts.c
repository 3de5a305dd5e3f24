// SPDX-License-Identifier: Apache-2.0
// Bitwise operators and shifts by constants. Byte and 16-bit results computed by C in int and
// truncated on the store run at their own width: & | ^ ~ and << keep the low bits, and >> of an
// element of the stored type is that type's own arithmetic (signed) or logical (unsigned) shift.
#include <stdint.h>

static uint8_t swapped[100000], masked[100000], halved[100000];
static int16_t mixed[100000];
static uint32_t rotated[100000];
static int wide[100000];
static int64_t folded[100000];

uint64_t bits_and_shifts(const uint8_t* a, const int16_t* q, const uint32_t* x, const int8_t* c, const int64_t* v, int k, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> u8
    for (int i = 0; i < n; ++i) swapped[i] = (a[i] >> 4) | (a[i] << 4);
    // expect: lifted map u8 -> u8
    for (int i = 0; i < n; ++i) masked[i] = (~a[i] & 0x3F) ^ (a[i] << 7);
    // A sum's >> needs its carry: computed in int (a + 200 wraps in u8), then converted.
    // expect: lifted map u8 -> u8
    for (int i = 0; i < n; ++i) halved[i] = (a[i] + 200) >> 1;
    // expect: lifted map i16 -> i16
    for (int i = 0; i < n; ++i) mixed[i] = (q[i] >> 3) ^ (q[i] << 2) ^ (q[i] >> 15);
    // expect: lifted map u32 -> u32
    for (int i = 0; i < n; ++i) rotated[i] = x[i] << 9 | x[i] >> 23;
    // expect: lifted map i8 -> i32
    for (int i = 0; i < n; ++i) wide[i] = (c[i] >> 1) + (c[i] << 20);
    // expect: lifted map i64 -> i64
    for (int i = 0; i < n; ++i) folded[i] = (v[i] >> 7) ^ v[i] ^ (v[i] << 33);
    // expect: not lifted: not a constant
    for (int i = 0; i < n; ++i) wide[i] = c[i] << k;
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 131u + swapped[i] + masked[i] + halved[i] + (uint16_t)mixed[i] + rotated[i] + (uint32_t)wide[i] + (uint64_t)folded[i];
    return h;
}
