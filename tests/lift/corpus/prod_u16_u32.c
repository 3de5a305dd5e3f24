// SPDX-License-Identifier: Apache-2.0
// uint32_t product of uint16_t elements.
#include <stdint.h>

uint32_t prod_u16(const uint16_t* a, int n) {
    uint32_t p = 1u;
    // expect: lifted reduce mul u16 -> u32
    for (int i = 0; i < n; ++i) {
        p *= a[i];
    }
    return p;
}
