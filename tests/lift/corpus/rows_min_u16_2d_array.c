// SPDX-License-Identifier: Apache-2.0
// Row minima of a 2-D array `g[r][c]` (40 columns, 80 bytes), from row 1 and column 0: the kernel
// reads the matrix from g[1]; the results go to out[r - 1].
#include <stdint.h>

uint64_t row_minima(const uint16_t* a, int n) {
    const uint16_t (*g)[40] = (const uint16_t (*)[40])a;
    uint16_t out[32];
    int rows = n / 40;
    if (rows > 33) rows = 33;
    // expect: lifted reduce min u16 -> u16, over rows
    for (int r = 1; r < rows; ++r) {
        uint16_t m = UINT16_MAX;
        // expect: part of the row lift
        for (int c = 0; c < 40; ++c) m = g[r][c] < m ? g[r][c] : m;
        out[r - 1] = m;
    }
    uint64_t check = 0;
    // expect: not lifted:
    for (int r = 1; r < rows; ++r) check = check * 65537u + out[r - 1];
    return check;
}
