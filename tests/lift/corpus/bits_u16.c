// SPDX-License-Identifier: Apache-2.0
// Flag words: the AND starts from a caller's mask, the OR and XOR from constants.
#include <stdint.h>

void bits_u16(const uint16_t* flags, long n, uint16_t mask, uint16_t* out_and, uint16_t* out_or, uint16_t* out_xor) {
    uint16_t common = mask;
    // expect: lifted reduce and u16
    for (long i = 0; i < n; ++i)
        common &= flags[i];
    uint16_t seen = 0x8000;
    // expect: lifted reduce or u16
    for (long i = 0; i < n; ++i)
        seen |= flags[i];
    uint16_t parity = 0x5a5a;
    // expect: lifted reduce xor u16
    for (long i = 0; i < n; ++i)
        parity ^= flags[i];
    *out_and = common;
    *out_or = seen;
    *out_xor = parity;
}
