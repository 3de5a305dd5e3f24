// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance
// double accumulator over float.
#include <cstddef>

double sum_f32_f64(const float* a, size_t n) {
    double s = 0.0;
    // expect: lifted reduce add f32 -> f64
    for (size_t i = 0; i < n; ++i) {
        s += a[i];
    }
    return s;
}
