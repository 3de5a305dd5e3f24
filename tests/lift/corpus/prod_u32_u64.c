// SPDX-License-Identifier: Apache-2.0
// uint64_t product of uint32_t elements, output through a pointer.
#include <stddef.h>
#include <stdint.h>

void prod_u32(const uint32_t* a, size_t n, uint64_t* out) {
    uint64_t p = 1;
    // expect: lifted reduce mul u32 -> u64
    for (size_t i = 0; i < n; ++i) {
        p = p * a[i];
    }
    *out = p;
}
