// SPDX-License-Identifier: Apache-2.0
// The if block assigns the index before the value: argmin, first index.
#include <stddef.h>
#include <stdint.h>

size_t argmin_i32(const int32_t* a, size_t n) {
    int32_t best = INT32_MAX;
    size_t where = 0;
    // expect: lifted arg_reduce argmin i32 first
    for (size_t i = 0; i < n; ++i) {
        if (a[i] < best) {
            where = i;
            best = a[i];
        }
    }
    return where;
}
