// SPDX-License-Identifier: Apache-2.0
// Row sums of a matrix: a 2-D row-wise loop (not in this version).
#include <stdint.h>

void row_sums(const int8_t* a, int rows, int cols, int32_t* out) {
    // expect: not lifted:
    for (int r = 0; r < rows; ++r) {
        int32_t s = 0;
        // expect: not lifted: index
        for (int c = 0; c < cols; ++c) {
            s += a[r * cols + c];
        }
        out[r] = s;
    }
}
