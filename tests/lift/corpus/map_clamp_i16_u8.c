// SPDX-License-Identifier: Apache-2.0
// Saturating int16 -> uint8 through two ternaries (the conversions are written out in the spec).
#include <stdint.h>

static uint8_t px[100000];

uint64_t clamp_hash(const int16_t* a, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map i16 -> u8
    for (int i = 0; i < n; ++i) {
        int16_t v = a[i];
        px[i] = v > 255 ? 255 : (v < 0 ? 0 : v);
    }
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 131u + px[i];
    return h;
}
