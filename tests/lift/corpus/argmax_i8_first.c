// SPDX-License-Identifier: Apache-2.0
// `x > best`, update in the then-branch -> argmax, first index (NumPy's argmax).
#include <stdint.h>

int argmax_i8(const int8_t* a, int n) {
    int8_t best = INT8_MIN;
    int idx = -1;
    // expect: lifted arg_reduce argmax i8 first
    for (int i = 0; i < n; ++i) {
        if (a[i] > best) {
            best = a[i];
            idx = i;
        }
    }
    return idx;
}
