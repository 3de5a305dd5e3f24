// SPDX-License-Identifier: Apache-2.0
// Without --reassociate a float sum keeps its order: not lifted.
float sum_f32_strict(const float* a, int n) {
    float s = 0.0f;
    // expect: not lifted: reassociat
    for (int i = 0; i < n; ++i) {
        s += a[i];
    }
    return s;
}
