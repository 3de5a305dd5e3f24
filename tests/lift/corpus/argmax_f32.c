// SPDX-License-Identifier: Apache-2.0
// Float argmax from -INFINITY: NaN elements never win; all -inf (or all NaN) gives -1.
#include <math.h>

int argmax_f32(const float* a, int n, float* out_value) {
    float best = -INFINITY;
    int idx = -1;
    // expect: lifted arg_reduce argmax f32 first
    for (int i = 0; i < n; ++i) {
        if (a[i] > best) {
            best = a[i];
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
