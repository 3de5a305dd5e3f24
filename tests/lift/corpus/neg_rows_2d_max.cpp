// SPDX-License-Identifier: Apache-2.0
// Row maxima with a leading dimension: a 2-D row-wise loop (not in this version).
#include <algorithm>
#include <cstddef>

void row_max(const float* a, size_t rows, size_t cols, size_t ld, float* out) {
    // expect: not lifted:
    for (size_t r = 0; r < rows; ++r) {
        float m = a[r * ld];
        // expect: not lifted: index
        for (size_t c = 1; c < cols; ++c) {
            m = std::max(m, a[r * ld + c]);
        }
        out[r] = m;
    }
}
