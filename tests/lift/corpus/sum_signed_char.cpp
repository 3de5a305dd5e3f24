// SPDX-License-Identifier: Apache-2.0
// signed char elements (not plain char: its signedness is fixed), bias from a parameter.
int sum_schar(const signed char* a, int n, int bias) {
    int s = bias;
    // expect: lifted reduce add i8 -> i32
    for (int i = 0; i < n; ++i) {
        s += a[i];
    }
    return s;
}
