// SPDX-License-Identifier: Apache-2.0
// Zero-terminated: the trip count depends on the data.
#include <stdint.h>

int64_t sum_until_zero(const int32_t* a) {
    int64_t s = 0;
    // expect: not lifted: a[i] != 0
    for (int i = 0; a[i] != 0; ++i) {
        s += a[i];
    }
    return s;
}
