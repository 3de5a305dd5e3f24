// SPDX-License-Identifier: Apache-2.0
// Product of signed bytes in an int.
#include <stdint.h>

int prod_i8(const int8_t* a, int n) {
    int p = 1;
    // expect: lifted reduce mul i8 -> i32
    for (int i = 0; i < n; ++i) {
        p *= a[i];
    }
    return p;
}
