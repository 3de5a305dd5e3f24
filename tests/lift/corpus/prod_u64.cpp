// SPDX-License-Identifier: Apache-2.0
// A multiplicative hash seeded by the caller.
#include <cstdint>

uint64_t prod_u64(const uint64_t* a, int64_t n, uint64_t seed) {
    uint64_t p = seed;
    // expect: lifted reduce mul u64
    for (int64_t i = 0; i < n; ++i) {
        p *= a[i];
    }
    return p;
}
