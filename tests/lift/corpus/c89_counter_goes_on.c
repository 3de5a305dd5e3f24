// SPDX-License-Identifier: Apache-2.0
// libpng's Sub filter as pngwutil.c writes it: a first loop copies bpp bytes, and a second one goes
// on from the counter's value while its init sets only another pointer (`for (lp = row + 1; i <
// row_bytes; i++, rp++, lp++, dp++)`): the counter continues, the init runs before the call, and
// after it i, rp, lp and dp hold what the loop leaves.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static uint8_t filtered[100001];

uint64_t sub_filter(const uint8_t* row, size_t n, unsigned bpp_bits) {
    size_t i, bpp = bpp_bits & 7;
    const uint8_t *rp, *lp;
    uint8_t* dp;
    uint64_t h = 0;
    if (n > 100000) n = 100000;
    if (bpp > n) bpp = n;
    memset(filtered, 0, sizeof filtered);
    // expect: lifted sub_filter_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = 0, rp = row, dp = filtered; i < bpp; i++, rp++, dp++)
        *dp = *rp;
    // expect: lifted sub_filter_lifted_2 (map u8 -> u8 (2 inputs, 1 output))
    for (lp = row; i < n; i++, rp++, lp++, dp++)
        *dp = (uint8_t)(((int)*rp - (int)*lp) & 0xff);
    h = (uint64_t)i * 31u + (uint64_t)(rp - row) * 7u + (uint64_t)(lp - row) * 3u + (uint64_t)(dp - filtered);
    // expect: not lifted:
    for (i = 0; i < n; i++) h = h * 1000003u + filtered[i];
    return h;
}
