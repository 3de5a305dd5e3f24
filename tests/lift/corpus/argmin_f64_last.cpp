// SPDX-License-Identifier: Apache-2.0
// double argmin, last index: `x <= best` from +infinity.
#include <limits>

long argmin_f64_last(const double* a, long n, double* out_value) {
    double best = std::numeric_limits<double>::infinity();
    long idx = -1;
    // expect: lifted arg_reduce argmin f64 last
    for (long i = 0; i < n; ++i) {
        const double x = a[i];
        if (x <= best) {
            best = x;
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
