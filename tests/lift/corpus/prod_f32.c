// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance
// Float product.
float prod_f32(const float* a, int n) {
    float p = 1.0f;
    // expect: lifted reduce mul f32
    for (int i = 0; i < n; ++i)
        p *= a[i];
    return p;
}
