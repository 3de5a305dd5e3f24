// SPDX-License-Identifier: Apache-2.0
// fmaxf ignores NaN elements.
#include <math.h>

float max_f32(const float* a, int n) {
    float m = -INFINITY;
    // expect: lifted reduce max f32
    for (int i = 0; i < n; ++i) {
        m = fmaxf(m, a[i]);
    }
    return m;
}
