// SPDX-License-Identifier: Apache-2.0
// Per-row argmax through a row pointer, rows 6 floats apart and 5 long, from a finite initial
// pair: one arg_reduce kernel call with the spec's `initial` (NaN elements never win).
#include <cstdint>

double row_peaks(const float* a, long n) {
    float values[24];
    long where[24];
    long rows = n / 6;
    if (rows > 24) rows = 24;
    // expect: lifted arg_reduce argmax f32 first, over rows
    for (long r = 0; r < rows; ++r) {
        const float* row = a + r * 6;
        float best = -1.0e30f;
        long at = -1;
        // expect: part of the row lift
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
