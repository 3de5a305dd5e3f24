// SPDX-License-Identifier: Apache-2.0
// Without --reassociate a double product keeps its order: not lifted.
#include <cstddef>

double prod_f64_strict(const double* a, size_t n) {
    double p = 1.0;
    // expect: not lifted: reassociat
    for (size_t i = 0; i < n; ++i) {
        p *= a[i];
    }
    return p;
}
