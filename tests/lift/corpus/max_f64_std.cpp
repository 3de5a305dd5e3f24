// SPDX-License-Identifier: Apache-2.0
// std::max(m, x) keeps m when x is NaN (and keeps a NaN m forever).
#include <algorithm>
#include <cstddef>

double max_f64(const double* a, size_t n, double init) {
    double m = init;
    // expect: lifted reduce max f64
    for (size_t i = 0; i < n; ++i) {
        m = std::max(m, a[i]);
    }
    return m;
}
