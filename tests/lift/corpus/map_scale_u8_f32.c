// SPDX-License-Identifier: Apache-2.0
// Bytes to floats in [0, 1] with a bias from a parameter (a runtime scalar of the kernel).
#include <stdint.h>
#include <string.h>

static float f[100000];

uint64_t scale_hash(const uint8_t* a, int n, float bias) {
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> f32
    for (int i = 0; i < n; ++i) f[i] = a[i] / 255.0f + bias;
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &f[i], 4);
        if (f[i] != f[i]) bits = 0x7fc00000u;
        h = h * 1000003u + bits;
    }
    return h;
}
