// SPDX-License-Identifier: Apache-2.0
// int64_t extremes with the accumulator first in the ternary.
#include <stdint.h>

void minmax_i64(const int64_t* a, int64_t n, int64_t* out_min, int64_t* out_max) {
    int64_t hi = INT64_MIN;
    // expect: lifted reduce max i64
    for (int64_t i = 0; i < n; ++i) {
        hi = hi < a[i] ? a[i] : hi;
    }
    int64_t lo = INT64_MAX;
    // expect: lifted reduce min i64
    for (int64_t i = 0; i < n; ++i) {
        lo = lo > a[i] ? a[i] : lo;
    }
    *out_min = lo;
    *out_max = hi;
}
