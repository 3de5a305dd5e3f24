// SPDX-License-Identifier: Apache-2.0
// The loop steps by 2 and reads its counter as a value (positions alone are a stride:
// map_counter_steps.c).
#include <stdint.h>

uint32_t sum_even_positions(const uint16_t* a, int n) {
    uint32_t s = 0;
    // expect: not lifted: reads it as a value
    for (int i = 0; i < n; i += 2) {
        s += a[i] * (uint32_t)i;
    }
    return s;
}
