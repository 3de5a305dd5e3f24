// SPDX-License-Identifier: Apache-2.0
// An early exit on the first negative element.
int sum_until_negative(const int* a, int n) {
    int s = 0;
    // expect: not lifted: break
    for (int i = 0; i < n; ++i) {
        if (a[i] < 0)
            break;
        s += a[i];
    }
    return s;
}
