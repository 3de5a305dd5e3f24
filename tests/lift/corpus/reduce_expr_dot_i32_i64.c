// SPDX-License-Identifier: Apache-2.0
// A dot product of int32 arrays summed in int64: the reduced value is an expression of two arrays
// (a map spec with a reduction output), exact in any order.
#include <stdint.h>

int64_t dot_i32(const int32_t* a, const int32_t* b, int n) {
    int64_t s = 0;
    // expect: lifted reduce add over convert(a, i64) * convert(b, i64) (i64, 2 inputs)
    for (int i = 0; i < n; ++i) {
        s += (int64_t)a[i] * b[i];
    }
    return s;
}
