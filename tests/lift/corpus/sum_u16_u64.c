// SPDX-License-Identifier: Apache-2.0
// Sum of 16-bit samples into 64 bits, long index and length.
#include <stdint.h>

uint64_t sum_u16(const uint16_t* samples, long n) {
    uint64_t sum = 0;
    // expect: lifted reduce add u16 -> u64
    for (long i = 0; i < n; i += 1) {
        sum += samples[i];
    }
    return sum;
}
