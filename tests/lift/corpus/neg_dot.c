// SPDX-License-Identifier: Apache-2.0
// A dot product: the reduced value is an expression of two arrays.
#include <stdint.h>

int64_t dot_i32(const int32_t* a, const int32_t* b, int n) {
    int64_t s = 0;
    // expect: not lifted: more than one array element
    for (int i = 0; i < n; ++i) {
        s += (int64_t)a[i] * b[i];
    }
    return s;
}
