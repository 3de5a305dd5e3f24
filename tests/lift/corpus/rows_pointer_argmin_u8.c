// SPDX-License-Identifier: Apache-2.0
// Rows through a row pointer, with the index relative to the row: the darkest pixel of each
// 80-pixel row, summed up.
#include <stdint.h>

long darkest_positions(const uint8_t* pixels, int n) {
    long sum = 0;
    // expect: not lifted: does not step by 1
    for (int r = 0; r + 80 <= n; r += 80) {
        const uint8_t* row = pixels + r;
        uint8_t low = 255;
        int at = -1;
        // expect: lifted arg_reduce argmin u8 last
        for (int c = 0; c < 80; ++c) {
            if (row[c] <= low) {
                low = row[c];
                at = c;
            }
        }
        sum += at * 7 + low;
    }
    return sum;
}
