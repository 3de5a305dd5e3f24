// SPDX-License-Identifier: Apache-2.0
// std::max(x, m) returns its first argument when the comparison is false: a NaN element
// replaces m (std::max(m, x) would keep m).
#include <algorithm>
#include <cstddef>

float max_f32_swapped(const float* a, size_t n) {
    float m = -1e30f;
    // expect: not lifted: NaN
    for (size_t i = 0; i < n; ++i) {
        m = std::max(a[i], m);
    }
    return m;
}
