// SPDX-License-Identifier: Apache-2.0
// An 8-bit checksum that wraps in its own type.
#include <stdint.h>

int8_t sum_i8_wrap(const int8_t* a, int n) {
    int8_t s = 0;
    // expect: lifted reduce add i8
    for (int i = 0; i < n; i++) {
        s += a[i];
    }
    return s;
}
