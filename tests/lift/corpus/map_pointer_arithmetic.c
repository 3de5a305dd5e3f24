// SPDX-License-Identifier: Apache-2.0
// Elements written as pointer arithmetic, `*(b + i)` for b[i] and `*(sp + 1)` for sp[1] (libpng's
// 16-bit samples): the same elements as the subscripts, also through a pointer that steps by 2
// (a strided input).
#include <stdint.h>
#include <string.h>

static float out[100000];
static uint8_t wide[2 * 100000], low[100000];

uint64_t pointer_arithmetic(const float* a, const uint8_t* p, int n) {
    uint64_t h = 0;
    int i;
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (i = 0; i < n - 1; i++) *(out + i) = *(a + i) * 2.0f + *(a + i + 1);
    // expect: not lifted:
    for (i = 0; i < n; i++) {
        wide[2 * i] = p[i];
        wide[2 * i + 1] = (uint8_t)(p[n - 1 - i] + 1);
    }
    const uint8_t* sp = wide;
    // expect: lifted map u8 -> u8 (2 inputs, 1 output)
    for (i = 0; i < n; i++) {
        *(low + i) = (uint8_t)(*(sp + 1) ^ *sp);
        sp += 2;
    }
    // expect: not lifted:
    for (i = 0; i < n - 1; i++) {
        uint32_t b;
        memcpy(&b, &out[i], 4);
        if (out[i] != out[i]) b = 0x7fc00000u;
        h = h * 1000003u + b + low[i];
    }
    return h;
}
