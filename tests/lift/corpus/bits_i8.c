// SPDX-License-Identifier: Apache-2.0
// AND, OR and XOR of signed bytes, one loop each, results through pointers.
#include <stdint.h>

void bits_i8(const int8_t* a, int n, int8_t* out_and, int8_t* out_or, int8_t* out_xor) {
    int8_t all = -1;
    // expect: lifted reduce and i8
    for (int i = 0; i < n; ++i) {
        all &= a[i];
    }
    int8_t any = 0;
    // expect: lifted reduce or i8
    for (int i = 0; i < n; ++i) {
        any |= a[i];
    }
    int8_t parity = 0;
    // expect: lifted reduce xor i8
    for (int i = 0; i < n; ++i) {
        parity ^= a[i];
    }
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
