// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance
// Float sum: lifted only when reassociation is allowed.
float sum_f32(const float* a, int n) {
    float s = 0.0f;
    // expect: lifted reduce add f32
    for (int i = 0; i < n; ++i) {
        s += a[i];
    }
    return s;
}
