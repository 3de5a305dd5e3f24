// SPDX-License-Identifier: Apache-2.0
// Clamp bounds: the extremes start from caller-supplied values.
#include <algorithm>
#include <cstdint>

void minmax_u16(const uint16_t* a, int64_t n, uint16_t floor_value, uint16_t ceil_value, uint16_t* out_max, uint16_t* out_min) {
    uint16_t m = floor_value;
    // expect: lifted reduce max u16
    for (int64_t i = 0; i < n; ++i) {
        m = std::max(m, a[i]);
    }
    uint16_t k = ceil_value;
    // expect: lifted reduce min u16
    for (int64_t i = 0; i < n; ++i) {
        k = std::min(k, a[i]);
    }
    *out_max = m;
    *out_min = k;
}
