// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// fmin from the first element: a NaN there is dropped by the next fmin.
#include <math.h>

double min_f64(const double* a, int n) {
    double m = a[0];
    // expect: lifted reduce min f64
    for (int i = 1; i < n; ++i) {
        m = fmin(m, a[i]);
    }
    return m;
}
