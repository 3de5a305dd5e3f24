// SPDX-License-Identifier: Apache-2.0
// Reductions of expressions that must stay loops: a float dot product without --reassociate, an
// accumulator that decays (its update reads it twice), and a sum that reads the loop index.
float dot_strict(const float* a, const float* b, int n, float* decayed, long* indexed) {
    float s = 0.0f, e = 0.0f;
    long k = 0;
    // expect: not lifted: pass --reassociate
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    // expect: not lifted:
    for (int i = 0; i < n; i++) e = e * 0.5f + a[i] * b[i];
    // expect: not lifted:
    for (int i = 0; i < n; i++) k += (long)a[i] * i;
    *decayed = e;
    *indexed = k;
    return s;
}
