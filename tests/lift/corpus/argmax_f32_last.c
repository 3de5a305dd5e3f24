// SPDX-License-Identifier: Apache-2.0
// `x >= best` from -INFINITY: all -inf gives the last index.
#include <math.h>

int argmax_f32_last(const float* a, int n) {
    float best = -INFINITY;
    int idx = -1;
    // expect: lifted arg_reduce argmax f32 last
    for (int i = 0; i < n; ++i) {
        float x = a[i];
        if (x >= best) {
            best = x;
            idx = i;
        }
    }
    return idx;
}
