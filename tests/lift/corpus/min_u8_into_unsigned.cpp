// SPDX-License-Identifier: Apache-2.0
// unsigned accumulator over bytes starting from a parameter that may exceed 255.
#include <cstddef>
#include <cstdint>

unsigned min_u8(const uint8_t* a, size_t n, unsigned start) {
    unsigned m = start;
    // expect: lifted reduce min u8
    for (size_t i = 0; i < n; ++i) {
        if (a[i] < m) {
            m = a[i];
        }
    }
    return m;
}
