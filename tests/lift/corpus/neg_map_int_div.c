// SPDX-License-Identifier: Apache-2.0
// Integer division has no SIMD instruction: the map family does not have it.
void halves(const int* a, int* out, int n) {
    // expect: not lifted: integer division
    for (int i = 0; i < n; ++i) out[i] = a[i] / 3;
}
