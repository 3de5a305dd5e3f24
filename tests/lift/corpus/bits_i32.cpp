// SPDX-License-Identifier: Apache-2.0
// int32_t AND/OR/XOR with i++ loops.
#include <cstdint>

void bits_i32(const int32_t* a, int n, int32_t* out_and, int32_t* out_or, int32_t* out_xor) {
    int32_t all = -1;
    // expect: lifted reduce and i32
    for (int i = 0; i < n; i++) all &= a[i];
    int32_t any = 0;
    // expect: lifted reduce or i32
    for (int i = 0; i < n; i++) any |= a[i];
    int32_t parity = 0;
    // expect: lifted reduce xor i32
    for (int i = 0; i < n; i++) parity ^= a[i];
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
