// SPDX-License-Identifier: Apache-2.0
// A fixed 8-element sum: a kernel call would cost more than the loop (the threshold is 64).
#include <stdint.h>

int32_t first_eight(const int16_t* a, int n) {
    int32_t s = n;
    // expect: not lifted: a loop of 8 elements
    for (int i = 0; i < 8; ++i) s += a[i];
    return s;
}
