// SPDX-License-Identifier: Apache-2.0
// int32_t product (wraps; the harness builds with -fwrapv).
#include <cstdint>

int32_t prod_i32(const int32_t* a, int n) {
    int32_t p = 1;
    // expect: lifted reduce mul i32
    for (int i = 0; i < n; i++) {
        p *= a[i];
    }
    return p;
}
