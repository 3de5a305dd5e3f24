// SPDX-License-Identifier: Apache-2.0
// Row sums of a byte matrix whose row length is known only at run time (0..99 columns, 3 bytes of
// padding per row): one kernel call for all rows when the rows hold at least 64 bytes, the
// original loop for shorter ones (the rewrite's run-time test; bench/lift measured short rows
// slower as kernel calls).
#include <stdint.h>

uint64_t runtime_row_sums(const uint8_t* a, int n) {
    uint32_t sums[64];
    const int cols = n % 100;
    const int ld = cols + 3;
    int rows = n / ld;
    if (rows > 64) rows = 64;
    // expect: lifted reduce add u8 -> u32, over rows
    for (int r = 0; r < rows; ++r) {
        uint32_t s = 0;
        // expect: part of the row lift
        for (int c = 0; c < cols; ++c) s += a[r * ld + c];
        sums[r] = s;
    }
    uint64_t check = 0;
    // expect: not lifted:
    for (int r = 0; r < rows; ++r) check = check * 1000003u + sums[r];
    return check;
}
