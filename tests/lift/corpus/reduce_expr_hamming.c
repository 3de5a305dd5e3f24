// SPDX-License-Identifier: Apache-2.0
// Hamming distances as binary vector search writes them: 64-bit codes through
// __builtin_popcountll, bytes through __builtin_popcount (the byte widened to unsigned int), a
// Jaccard intersection count, and the bits of signed words (converted to unsigned, as C does).
#include <stdint.h>
#include <stddef.h>

int64_t hamming_codes(const uint64_t* a, const uint64_t* b, size_t n, const uint8_t* x, const uint8_t* y, const uint32_t* p, const uint32_t* q, int64_t* both, const int32_t* s) {
    int64_t d = 0;
    // expect: lifted reduce add over convert(convert(popcount((a ^ b)), i32, wrap), i64)
    for (size_t i = 0; i < n; ++i) d += __builtin_popcountll(a[i] ^ b[i]);
    int bytes = 0;
    // expect: lifted reduce add over convert(popcount((convert(x, u32) ^ convert(y, u32))), i32)
    for (size_t i = 0; i < n; i++) bytes += __builtin_popcount(x[i] ^ y[i]);
    unsigned inter = 0;
    // expect: lifted reduce add
    for (size_t i = 0; i < n; i++) inter += __builtin_popcount(p[i] & q[i]);
    int sb = 0;
    // expect: lifted reduce add over convert(popcount(convert(s, u32
    for (size_t i = 0; i < n; i++) sb += __builtin_popcount(s[i]);
    *both = inter + sb;
    return d + bytes;
}
