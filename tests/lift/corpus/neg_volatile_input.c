// SPDX-License-Identifier: Apache-2.0
// Volatile input (a device buffer): every load must happen, once, in order.
#include <stdint.h>

uint32_t sum_device(const volatile uint32_t* regs, int n) {
    uint32_t s = 0;
    // expect: not lifted: volatile
    for (int i = 0; i < n; ++i) {
        s += regs[i];
    }
    return s;
}
