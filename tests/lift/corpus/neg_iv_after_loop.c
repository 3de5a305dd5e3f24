// SPDX-License-Identifier: Apache-2.0
// The induction variable is declared before the loop and used after it.
#include <stdint.h>

int64_t sum_and_count(const int32_t* a, int n, int* out_count) {
    int64_t s = 0;
    int i;
    // expect: not lifted: declared before the loop
    for (i = 0; i < n; ++i) {
        s += a[i];
    }
    *out_count = i;
    return s;
}
