// SPDX-License-Identifier: Apache-2.0
// The loop steps by 2.
#include <stdint.h>

uint32_t sum_even_positions(const uint16_t* a, int n) {
    uint32_t s = 0;
    // expect: not lifted: step
    for (int i = 0; i < n; i += 2) {
        s += a[i];
    }
    return s;
}
