// SPDX-License-Identifier: Apache-2.0
// 16-bit product continued from a caller's value.
#include <stdint.h>

int16_t prod_i16(const int16_t* a, int n, int16_t init) {
    int16_t p = init;
    // expect: lifted reduce mul i16
    for (int i = 0; i < n; ++i)
        p *= a[i];
    return p;
}
