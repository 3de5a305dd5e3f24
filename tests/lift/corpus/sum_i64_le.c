// SPDX-License-Identifier: Apache-2.0
// Inclusive upper bound: i <= n - 1.
#include <stdint.h>

int64_t sum_i64(const int64_t* a, int n) {
    int64_t s = 0;
    // expect: lifted reduce add i64
    for (int i = 0; i <= n - 1; ++i) {
        s = s + a[i];
    }
    return s;
}
