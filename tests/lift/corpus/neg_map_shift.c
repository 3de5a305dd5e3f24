// SPDX-License-Identifier: Apache-2.0
// A shift (a[i] = a[i + 1]) reads what the previous iteration did not write yet: not element-wise.
void shift_left(int* a, int n) {
    // expect: not lifted: different positions
    for (int i = 0; i < n - 1; ++i) a[i] = a[i + 1];
}
