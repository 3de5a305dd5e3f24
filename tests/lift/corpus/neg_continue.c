// SPDX-License-Identifier: Apache-2.0
// A conditional sum written with `continue`: only the positive elements count.
#include <stdint.h>

int64_t sum_positive(const int32_t* a, int n) {
    int64_t s = 0;
    // expect: not lifted: continue
    for (int i = 0; i < n; ++i) {
        if (a[i] <= 0)
            continue;
        s += a[i];
    }
    return s;
}
