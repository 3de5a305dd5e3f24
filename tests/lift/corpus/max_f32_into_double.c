// SPDX-License-Identifier: Apache-2.0
// double accumulator over float elements, starting at -HUGE_VAL.
#include <math.h>

double max_f32_wide(const float* a, long n) {
    double m = -HUGE_VAL;
    // expect: lifted reduce max f32
    for (long i = 0; i < n; ++i) {
        if (a[i] > m)
            m = a[i];
    }
    return m;
}
