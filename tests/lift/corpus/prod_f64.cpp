// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance
// Scaled double product, result through a pointer.
#include <cstdint>

void prod_f64(const double* a, int64_t n, double scale, double* out) {
    double p = scale;
    // expect: lifted reduce mul f64
    for (int64_t i = 0; i < n; ++i) {
        p = p * a[i];
    }
    *out = p;
}
