// SPDX-License-Identifier: Apache-2.0
// Row sums of a 71-column matrix through `a[r * cols + c]`: the inner loop lifts (one call per row),
// the outer one, which mixes the sums into a checksum, does not.
#include <stdint.h>

int64_t row_sums_checksum(const int8_t* a, int n) {
    const int cols = 71, rows = n / 71;
    int64_t check = 0;
    // expect: not lifted: as a row-wise reduction
    for (int r = 0; r < rows; ++r) {
        int32_t s = 0;
        // expect: lifted reduce add i8 -> i32
        for (int c = 0; c < cols; ++c) {
            s += a[r * cols + c];
        }
        check = check * 31 + s;
    }
    return check;
}
