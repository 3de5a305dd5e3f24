// SPDX-License-Identifier: Apache-2.0
// unsigned accumulators over bytes: AND starts from ~0u, which no byte can represent.
#include <cstddef>
#include <cstdint>

void bits_u8(const uint8_t* a, size_t n, unsigned* out_and, unsigned* out_or, unsigned* out_xor) {
    unsigned all = ~0u;
    // expect: lifted reduce and u8 -> u32
    for (size_t i = 0; i < n; ++i) {
        all &= a[i];
    }
    unsigned any = 0;
    // expect: lifted reduce or u8 -> u32
    for (size_t i = 0; i < n; ++i) {
        any |= a[i];
    }
    unsigned parity = 0;
    // expect: lifted reduce xor u8 -> u32
    for (size_t i = 0; i < n; ++i) {
        parity ^= a[i];
    }
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
