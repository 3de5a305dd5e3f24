// SPDX-License-Identifier: Apache-2.0
// Row-wise reductions over rows shorter than one 64-byte vector stay loops: one kernel call for
// all rows ran slower than the loop (5 f32: 0.19x, 12 u16: 0.37x, 9 i8: 0.79x; bench/lift), and
// the rows' own loops are too short to lift (the 64-element rule).
#include <stdint.h>

double short_row_peaks(const float* a, long n) {
    float values[24];
    long where[24];
    long rows = n / 6;
    if (rows > 24) rows = 24;
    // expect: not lifted: as a row-wise reduction: rows of 5 elements (20 bytes)
    for (long r = 0; r < rows; ++r) {
        const float* row = a + r * 6;
        float best = -1.0e30f;
        long at = -1;
        // expect: not lifted: a loop of 5 elements
        for (long c = 0; c < 5; ++c) {
            if (row[c] > best) {
                best = row[c];
                at = c;
            }
        }
        values[r] = best;
        where[r] = at;
    }
    double check = 0;
    // expect: not lifted:
    for (long r = 0; r < rows; ++r) check = check * 3 + values[r] + where[r];
    return check;
}

uint64_t short_row_minima(const uint16_t* a, int n) {
    const uint16_t (*g)[12] = (const uint16_t (*)[12])a;
    uint16_t out[32];
    int rows = n / 12;
    if (rows > 32) rows = 32;
    // expect: not lifted: as a row-wise reduction: rows of 12 elements (24 bytes)
    for (int r = 0; r < rows; ++r) {
        uint16_t m = UINT16_MAX;
        // expect: not lifted: a loop of 12 elements
        for (int c = 0; c < 12; ++c) m = g[r][c] < m ? g[r][c] : m;
        out[r] = m;
    }
    uint64_t check = 0;
    // expect: not lifted:
    for (int r = 0; r < rows; ++r) check = check * 65537u + out[r];
    return check;
}
