// SPDX-License-Identifier: Apache-2.0
// Integer reductions of expressions, exact in any order: a count of bright pixels (a comparison
// added as 0 or 1), a weighted sum of two channels in 32 bits, and an xor checksum of a mix.
#include <stdint.h>

uint32_t bright(const uint8_t* p, const uint8_t* g, int n, int32_t* weighted, uint32_t* check) {
    uint32_t c = 0;
    int32_t w = 0;
    uint32_t h = 0x811c9dc5u;
    // expect: lifted reduce add over select(convert(p, i32) > 128, 1, 0)
    for (int i = 0; i < n; i++) c += p[i] > 128;
    // expect: lifted reduce add over (convert(p, i32) * 3) + (convert(g, i32) * 5)
    for (int i = 0; i < n; i++) w += p[i] * 3 + g[i] * 5;
    // expect: lifted reduce xor
    for (int i = 0; i < n; i++) h ^= (uint32_t)p[i] * 16777619u + g[i];
    *weighted = w;
    *check = h;
    return c;
}
