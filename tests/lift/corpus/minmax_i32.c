// SPDX-License-Identifier: Apache-2.0
// int32_t extremes with a local for the element and inclusive bounds.
#include <stdint.h>

void minmax_i32(const int32_t* a, int n, int32_t* out_min, int32_t* out_max) {
    int32_t lo = INT32_MAX;
    // expect: lifted reduce min i32
    for (int i = 0; i <= n - 1; ++i) {
        const int32_t x = a[i];
        if (x < lo) {
            lo = x;
        }
    }
    int32_t hi = INT32_MIN;
    // expect: lifted reduce max i32
    for (int i = 0; i <= n - 1; ++i) {
        const int32_t x = a[i];
        if (hi < x) {
            hi = x;
        }
    }
    *out_min = lo;
    *out_max = hi;
}
