// SPDX-License-Identifier: Apache-2.0
// Row XORs skipping each row's first element (`a[r * 20 + c + 1]`, c < 19): one kernel over all
// rows reading from a + 1.
#include <stdint.h>

uint64_t row_xor_check(const uint32_t* a, int n) {
    uint32_t x[64];
    int rows = n / 20;
    if (rows > 64) rows = 64;
    // expect: lifted reduce xor u32 -> u32, over rows
    for (int r = 0; r < rows; ++r) {
        uint32_t acc = 0;
        // expect: part of the row lift
        for (int c = 0; c < 19; ++c) acc ^= a[r * 20 + c + 1];
        x[r] = acc;
    }
    uint64_t check = 0;
    // expect: not lifted:
    for (int r = 0; r < rows; ++r) check = check * 1000003u + x[r];
    return check;
}
