// SPDX-License-Identifier: Apache-2.0
// Narrow integer arithmetic that C promotes to int and truncates on the store: computed in the
// stored type (its low bits depend only on the operands' low bits), so the kernels run at 8- and
// 16-bit lanes. Constants wrap into the stored type (300 * x as u8 is 44 * x); a signed input
// stored as unsigned converts with wrap-around.
#include <stdint.h>

static uint8_t blend[100000];
static int16_t mixed[100000];

uint64_t wrap_hash(const uint8_t* a, const uint8_t* b, const int8_t* c, int16_t k, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map u8,i8 -> u8
    for (int i = 0; i < n; ++i) blend[i] = a[i] * 3 + b[i] - c[i] + 300 * a[i];
    // expect: lifted map u8,i8 -> i16
    for (int i = 0; i < n; ++i) mixed[i] = -(a[i] * k) + c[i] * c[i] - 40000;
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 131u + blend[i] + (uint16_t)mixed[i];
    return h;
}
