// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// The accumulator starts from the first element; the loop starts at 1.
#include <cstddef>
#include <cstdint>

uint64_t sum_u64(const uint64_t* a, size_t n) {
    uint64_t s = a[0];
    // expect: lifted reduce add u64
    for (size_t i = 1; i < n; ++i) {
        s += a[i];
    }
    return s;
}
