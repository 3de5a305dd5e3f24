// SPDX-License-Identifier: Apache-2.0
// Three loops of one function: the kernels are named bits_u32_lifted, _lifted_2, _lifted_3.
#include <stddef.h>
#include <stdint.h>

void bits_u32(const uint32_t* a, size_t n, uint32_t* out_and, uint32_t* out_or, uint32_t* out_xor) {
    uint32_t all = 0xffffffffu;
    // expect: lifted bits_u32_lifted (reduce and u32
    for (size_t i = 0; i < n; ++i) {
        all &= a[i];
    }
    uint32_t any = 0;
    // expect: lifted bits_u32_lifted_2 (reduce or u32
    for (size_t i = 0; i < n; ++i) {
        any |= a[i];
    }
    uint32_t parity = 0;
    // expect: lifted bits_u32_lifted_3 (reduce xor u32
    for (size_t i = 0; i < n; ++i) {
        parity ^= a[i];
    }
    *out_and = all;
    *out_or = any;
    *out_xor = parity;
}
