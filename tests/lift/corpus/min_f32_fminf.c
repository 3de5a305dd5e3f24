// SPDX-License-Identifier: Apache-2.0
// fminf from a caller's value: a NaN initial value is dropped by the first fminf.
#include <stddef.h>
#include <math.h>

float min_f32_from(const float* a, size_t n, float init) {
    float m = init;
    // expect: lifted reduce min f32
    for (size_t i = 0; i < n; ++i)
        m = fminf(m, a[i]);
    return m;
}
