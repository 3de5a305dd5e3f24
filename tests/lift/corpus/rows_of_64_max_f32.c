// SPDX-License-Identifier: Apache-2.0
// Rows of 64 floats in one array: the largest of the row maxima, through a row offset `r + c`.
#include <math.h>

float max_of_rows(const float* a, int n) {
    float best = -INFINITY;
    // expect: not lifted: does not step by 1
    for (int r = 0; r + 64 <= n; r += 64) {
        float m = -INFINITY;
        // expect: lifted reduce max f32
        for (int c = 0; c < 64; ++c)
            if (a[r + c] > m) m = a[r + c];
        best = m > best ? m : best;
    }
    return best;
}
