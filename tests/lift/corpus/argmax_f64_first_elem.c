// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// From the first element: a NaN there is kept (every later comparison with it is false).
#include <stddef.h>

size_t argmax_f64(const double* a, size_t n) {
    double best = a[0];
    size_t idx = 0;
    // expect: lifted arg_reduce argmax f64 first
    for (size_t i = 1; i < n; ++i) {
        if (best < a[i]) {
            best = a[i];
            idx = i;
        }
    }
    return idx;
}
