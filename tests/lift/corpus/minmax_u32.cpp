// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// std::min/std::max with explicit template arguments, from the first element.
#include <algorithm>
#include <cstddef>
#include <cstdint>

uint32_t range_u32(const uint32_t* a, size_t n) {
    uint32_t lo = a[0];
    // expect: lifted reduce min u32
    for (size_t i = 1; i < n; ++i) {
        lo = std::min<uint32_t>(lo, a[i]);
    }
    uint32_t hi = a[0];
    // expect: lifted reduce max u32
    for (size_t i = 1; i < n; ++i) {
        hi = std::max<uint32_t>(hi, a[i]);
    }
    return hi - lo;
}
