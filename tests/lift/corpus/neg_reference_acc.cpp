// SPDX-License-Identifier: Apache-2.0
// The accumulator is a reference parameter: it may alias the array.
void accumulate(const int* a, int n, int& total) {
    // expect: not lifted: total
    for (int i = 0; i < n; ++i) {
        total += a[i];
    }
}
