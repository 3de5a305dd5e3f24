// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance
// double sum continued from a caller's value, `s = s + x` form.
#include <stddef.h>

double sum_f64(const double* a, size_t n, double init) {
    double s = init;
    // expect: lifted reduce add f64
    for (size_t i = 0; i < n; ++i) {
        s = s + a[i];
    }
    return s;
}
