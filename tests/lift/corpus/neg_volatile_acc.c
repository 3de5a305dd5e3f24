// SPDX-License-Identifier: Apache-2.0
// A volatile accumulator: every store is observable.
#include <stdint.h>

int32_t sum_volatile(const int32_t* a, int n) {
    volatile int32_t s = 0;
    // expect: not lifted: volatile
    for (int i = 0; i < n; ++i) {
        s += a[i];
    }
    return s;
}
