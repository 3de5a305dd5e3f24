// SPDX-License-Identifier: Apache-2.0
// Row sums and a transpose in C89 style: both counters declared at the top and read after the
// nests (r and c hold rows and cols after a non-empty nest, as the loops leave them).
#include <stdint.h>
#include <string.h>

static float t[100000];

int64_t rows_c89(const int16_t* a, const float* f, int n) {
    int32_t sums[40] = {0};
    int r = 0, c = 0, k;
    int cols = 67, rows = n / cols;
    int64_t check = 0;
    if (rows > 40) rows = 40;
    // expect: lifted rows_c89_lifted (reduce add i16 -> i32, over rows)
    for (r = 0; r < rows; ++r) {
        int32_t s = 0;
        // expect: part of the row lift
        for (c = 0; c < cols; ++c) s += a[r * cols + c];
        sums[r] = s;
    }
    check = r * 1000 + c;
    cols = 37;
    rows = n / cols;
    // expect: lifted transpose f32
    for (r = 0; r < rows; ++r)
        // expect: part of the row lift
        for (c = 0; c < cols; ++c) t[c * rows + r] = f[r * cols + c];
    check = check * 7 + r * 1000 + c;
    // expect: not lifted:
    for (k = 0; k < (rows < 40 ? rows : 40); ++k) check = check * 31 + sums[k];
    // expect: not lifted:
    for (k = 0; k < rows * cols; ++k) {
        uint32_t bits;
        memcpy(&bits, &t[k], 4);
        check = check * 1000003 + bits;
    }
    return check;
}
