// SPDX-License-Identifier: Apache-2.0
// `x < m ? x : m` keeps m when x is NaN.
#include <math.h>

float min_f32(const float* a, int n) {
    float m = INFINITY;
    // expect: lifted reduce min f32
    for (int i = 0; i < n; ++i) {
        m = a[i] < m ? a[i] : m;
    }
    return m;
}
