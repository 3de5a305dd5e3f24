// SPDX-License-Identifier: Apache-2.0
// Byte histogram total: uint32_t accumulator over uint8_t, `total = total + x` form, i++.
#include <stddef.h>
#include <stdint.h>

uint32_t sum_u8(const uint8_t* data, size_t n) {
    uint32_t total = 0;
    // expect: lifted reduce add u8 -> u32
    for (size_t i = 0; i < n; i++)
        total = total + data[i];
    return total;
}
