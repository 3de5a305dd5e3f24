// SPDX-License-Identifier: Apache-2.0
// Row maxima with a leading dimension, each row started from its first element (the kernel runs
// over the rest of the row, `a + r * ld + 1`).
#include <algorithm>
#include <cstddef>

float row_max_sum(const float* a, size_t n) {
    const size_t ld = 70, cols = 66, rows = n / ld;
    float total = 0;
    // expect: not lifted:
    for (size_t r = 0; r < rows; ++r) {
        float m = a[r * ld];
        // expect: lifted reduce max f32
        for (size_t c = 1; c < cols; ++c) {
            m = std::max(m, a[r * ld + c]);
        }
        total = total + m;
    }
    return total;
}
