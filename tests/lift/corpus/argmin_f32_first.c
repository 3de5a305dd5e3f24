// SPDX-License-Identifier: Apache-2.0
// Starts from FLT_MAX, not +inf: +inf elements never win.
#include <float.h>

int argmin_f32(const float* a, int n, float* out_value) {
    float best = FLT_MAX;
    int idx = -1;
    // expect: lifted arg_reduce argmin f32 first
    for (int i = 0; i < n; ++i) {
        if (a[i] < best) {
            best = a[i];
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
