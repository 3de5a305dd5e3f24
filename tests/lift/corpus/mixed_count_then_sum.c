// SPDX-License-Identifier: Apache-2.0
// Two loops: a conditional count (not a reduction of the elements) and a sum (lifted).
#include <stdint.h>

int64_t sum_and_negatives(const int32_t* a, int n, int* out_negatives) {
    int neg = 0;
    // expect: not lifted: count
    for (int i = 0; i < n; ++i) {
        if (a[i] < 0)
            neg++;
    }
    int64_t s = 0;
    // expect: lifted reduce add i32 -> i64
    for (int i = 0; i < n; ++i) {
        s += a[i];
    }
    *out_negatives = neg;
    return s;
}
