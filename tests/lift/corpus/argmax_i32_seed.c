// SPDX-License-Identifier: Apache-2.0
// The min/max-with-index example of LLVM review D143465: `max < x`, update in the then-branch,
// initial value and index from the caller -> argmax, first index.
int smax_idx(const int* a, int n, int mm, int ii, int* res_max) {
    int idx = ii;
    int max = mm;
    // expect: lifted arg_reduce argmax i32 first
    for (int i = 0; i < n; ++i) {
        int x = a[i];
        if (max < x) {
            max = x;
            idx = i;
        }
    }
    *res_max = max;
    return idx;
}
