// SPDX-License-Identifier: Apache-2.0
// `m > x ? m : x` on floats: a NaN element replaces m, which no NaN-ignoring max does.
float max_f32_nan(const float* a, int n) {
    float m = -1e30f;
    // expect: not lifted: NaN
    for (int i = 0; i < n; ++i) {
        m = m > a[i] ? m : a[i];
    }
    return m;
}
