// SPDX-License-Identifier: Apache-2.0
// Product modulo 256, `p = p * x` form.
#include <cstddef>
#include <cstdint>

uint8_t prod_u8(const uint8_t* a, size_t n) {
    uint8_t p = 1;
    // expect: lifted reduce mul u8
    for (size_t i = 0; i < n; ++i) {
        p = p * a[i];
    }
    return p;
}
