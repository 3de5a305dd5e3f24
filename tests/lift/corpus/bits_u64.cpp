// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// uint64_t AND/OR/XOR, each accumulator starting from the first element.
#include <cstddef>
#include <cstdint>

void bits_u64(const uint64_t* a, size_t n, uint64_t* out_and, uint64_t* out_or, uint64_t* out_xor) {
    uint64_t all = a[0];
    // expect: lifted reduce and u64
    for (size_t i = 1; i < n; ++i) {
        all &= a[i];
    }
    uint64_t any = a[0];
    // expect: lifted reduce or u64
    for (size_t i = 1; i < n; ++i) {
        any |= a[i];
    }
    uint64_t parity = a[0];
    // expect: lifted reduce xor u64
    for (size_t i = 1; i < n; ++i) {
        parity ^= a[i];
    }
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
