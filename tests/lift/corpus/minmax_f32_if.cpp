// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// Bounding interval of floats: if statements, both from the first element.
#include <cstddef>

void bounds_f32(const float* a, size_t n, float* out_lo, float* out_hi) {
    float lo = a[0];
    // expect: lifted reduce min f32
    for (size_t i = 1; i < n; ++i) {
        if (a[i] < lo) lo = a[i];
    }
    float hi = a[0];
    // expect: lifted reduce max f32
    for (size_t i = 1; i < n; ++i) {
        if (a[i] > hi) hi = a[i];
    }
    *out_lo = lo;
    *out_hi = hi;
}
