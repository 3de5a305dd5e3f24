// SPDX-License-Identifier: Apache-2.0
// Old value on the true side on floats: `best >= x` is false for a NaN x, so NaN replaces best.
int argmax_f32_keep(const float* a, int n) {
    float best = -1e30f;
    int idx = -1;
    // expect: not lifted: NaN
    for (int i = 0; i < n; ++i) {
        const bool keep = best >= a[i];
        idx = keep ? idx : i;
        best = keep ? best : a[i];
    }
    return idx;
}
