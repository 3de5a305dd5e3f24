// SPDX-License-Identifier: Apache-2.0
// A matrix with a row stride, summed row by row through `a[r * stride + c]` (the inner loop is
// lifted per row; the outer one accumulates the rows).
#include <cstdint>

int64_t weighted_rows(const int16_t* a, long n) {
    const long stride = 75, cols = 70;
    int64_t total = 0;
    // expect: not lifted: the condition
    for (long r = 0; (r + 1) * stride <= n; ++r) {
        int32_t row = 0;
        // expect: lifted reduce add i16 -> i32
        for (long c = 0; c < cols; ++c) row += a[r * stride + c];
        total += row * (r + 1);
    }
    return total;
}
