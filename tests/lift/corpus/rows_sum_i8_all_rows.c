// SPDX-License-Identifier: Apache-2.0
// Row sums of a 67-column int8 matrix into an array: the row loop lifts as one kernel call over
// all rows (shape [rows, cols], row stride 67).
#include <stdint.h>

int64_t row_sums_mixed(const int8_t* a, int n) {
    int32_t sums[40];
    const int cols = 67;
    int rows = n / cols;
    if (rows > 40) rows = 40;
    // expect: lifted row_sums_mixed_lifted (reduce add i8 -> i32, over rows)
    for (int r = 0; r < rows; ++r) {
        int32_t s = 0;
        // expect: part of the row lift
        for (int c = 0; c < cols; ++c) s += a[r * cols + c];
        sums[r] = s;
    }
    int64_t check = 0;
    // expect: not lifted:
    for (int r = 0; r < rows; ++r) check = check * 31 + sums[r];
    return check;
}
