// SPDX-License-Identifier: Apache-2.0
// Darkest and brightest pixel with ternaries.
#include <stddef.h>
#include <stdint.h>

void minmax_u8(const uint8_t* pixels, size_t n, uint8_t* out_min, uint8_t* out_max) {
    uint8_t lo = 255;
    // expect: lifted reduce min u8
    for (size_t i = 0; i < n; ++i) {
        lo = pixels[i] < lo ? pixels[i] : lo;
    }
    uint8_t hi = 0;
    // expect: lifted reduce max u8
    for (size_t i = 0; i < n; ++i) {
        hi = hi < pixels[i] ? pixels[i] : hi;
    }
    *out_min = lo;
    *out_max = hi;
}
