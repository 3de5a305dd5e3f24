// SPDX-License-Identifier: Apache-2.0
// `best >= x` from a caller's pair -> argmin, last index; NaN elements are skipped.
float argmin_f32_from(const float* a, int n, float init_value, int init_index, int* out_index) {
    float best = init_value;
    int idx = init_index;
    // expect: lifted arg_reduce argmin f32 last
    for (int i = 0; i < n; ++i) {
        if (best >= a[i]) {
            best = a[i];
            idx = i;
        }
    }
    *out_index = idx;
    return best;
}
