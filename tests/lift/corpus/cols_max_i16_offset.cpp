// SPDX-License-Identifier: Apache-2.0
// Column maxima from column 1 and row 2 of a 24-column matrix (`a[c + 24 * r]`), results stored
// from out[0]: the kernel reads from a + 2 * 24 + 1.
#include <cstdint>

int64_t col_max_check(const int16_t* a, long n) {
    int16_t out[23];
    const long rows = n / 24;
    // expect: lifted reduce max i16 -> i16, over columns
    for (long c = 1; c < 24; ++c) {
        int16_t m = INT16_MIN;
        // expect: part of the row lift
        for (long r = 2; r < rows; ++r)
            if (a[c + 24 * r] > m) m = a[c + 24 * r];
        out[c - 1] = m;
    }
    int64_t check = 0;
    // expect: not lifted:
    for (long c = 0; c < 23; ++c) check = check * 65599 + out[c];
    return check;
}
