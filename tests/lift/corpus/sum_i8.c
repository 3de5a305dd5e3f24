// SPDX-License-Identifier: Apache-2.0
// Sum of signed bytes into an int: a widening accumulator.
#include <stdint.h>

int sum_i8(const int8_t* a, int n) {
    int s = 0;
    // expect: lifted reduce add i8 -> i32
    for (int i = 0; i < n; ++i) {
        s += a[i];
    }
    return s;
}
