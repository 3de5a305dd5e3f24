// SPDX-License-Identifier: Apache-2.0
// int accumulator over int8_t starting at INT_MIN, a value no byte has: an empty array must
// return INT_MIN, not -128.
#include <limits.h>
#include <stdint.h>

int max_i8(const int8_t* a, int n) {
    int m = INT_MIN;
    // expect: lifted reduce max i8
    for (int i = 0; i < n; ++i) {
        if (a[i] > m) m = a[i];
    }
    return m;
}
