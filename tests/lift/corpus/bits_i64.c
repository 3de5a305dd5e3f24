// SPDX-License-Identifier: Apache-2.0
// int64_t AND/OR/XOR with inclusive bounds.
#include <stdint.h>

void bits_i64(const int64_t* a, int64_t n, int64_t* out_and, int64_t* out_or, int64_t* out_xor) {
    int64_t all = -1;
    // expect: lifted reduce and i64
    for (int64_t i = 0; i <= n - 1; ++i) {
        all &= a[i];
    }
    int64_t any = 0;
    // expect: lifted reduce or i64
    for (int64_t i = 0; i <= n - 1; ++i) {
        any |= a[i];
    }
    int64_t parity = 0;
    // expect: lifted reduce xor i64
    for (int64_t i = 0; i <= n - 1; ++i) {
        parity ^= a[i];
    }
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
