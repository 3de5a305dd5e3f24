// SPDX-License-Identifier: Apache-2.0
// A byte checksum as old C code writes it: unsigned char buffer, unsigned long sum.
#include <stddef.h>

unsigned long checksum(const unsigned char* buf, size_t n) {
    unsigned long sum = 0;
    // expect: lifted reduce add u8 -> u64
    for (size_t i = 0; i < n; ++i)
        sum += buf[i];
    return sum;
}
