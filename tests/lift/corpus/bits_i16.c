// SPDX-License-Identifier: Apache-2.0
// int accumulators over int16_t in the `acc = acc op x` form.
#include <stdint.h>

void bits_i16(const int16_t* a, int n, int* out_and, int* out_or, int* out_xor) {
    int all = -1;
    // expect: lifted reduce and i16 -> i32
    for (int i = 0; i < n; ++i) {
        all = all & a[i];
    }
    int any = 0;
    // expect: lifted reduce or i16 -> i32
    for (int i = 0; i < n; ++i) {
        any = any | a[i];
    }
    int parity = 0;
    // expect: lifted reduce xor i16 -> i32
    for (int i = 0; i < n; ++i) {
        parity = parity ^ a[i];
    }
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
