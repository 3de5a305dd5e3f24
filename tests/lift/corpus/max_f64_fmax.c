// SPDX-License-Identifier: Apache-2.0
// fmax on doubles, the element first, from DBL_MAX's negative.
#include <float.h>
#include <math.h>

double max_f64_fmax(const double* a, int n) {
    double m = -DBL_MAX;
    // expect: lifted reduce max f64
    for (int i = 0; i < n; ++i) {
        m = fmax(a[i], m);
    }
    return m;
}
