// SPDX-License-Identifier: Apache-2.0
// Per-row argmax through a row pointer, rows 20 floats apart and 17 long (68 bytes; shorter rows
// stay loops: neg_rows_short.c), from a finite initial pair: one arg_reduce kernel call with the
// spec's `initial` (NaN elements never win).
#include <cstdint>

double row_peaks(const float* a, long n) {
    float values[24];
    long where[24];
    long rows = n / 20;
    if (rows > 24) rows = 24;
    // expect: lifted arg_reduce argmax f32 first, over rows
    for (long r = 0; r < rows; ++r) {
        const float* row = a + r * 20;
        float best = -1.0e30f;
        long at = -1;
        // expect: part of the row lift
        for (long c = 0; c < 17; ++c) {
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
