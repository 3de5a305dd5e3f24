// SPDX-License-Identifier: Apache-2.0
// An int8 matrix-vector product into int32 as quantized inference code writes it (C89: both
// counters declared at the top and read after the nest, rows `ld` apart), and per-row pixel
// statistics (a sum and a sum of squares of bytes in one pass). Integer sums are exact, so no
// --reassociate: the rows run through the dot instructions (vpdpbusd/sdot) where the CPU has them.
#include <stdint.h>

int64_t qmatvec(const int8_t* w, const int8_t* x, const uint8_t* p, int n) {
    int32_t y[6];
    int r, c = 0;
    int cols = n / 6, ld = cols + 5, rows = cols > 0 ? n / ld : 0;
    uint32_t sums[6], squares[6];
    int64_t check;
    if (rows > 6) rows = 6;
    // expect: lifted reduce add over convert(w, i32) * convert(x, i32) (i32, 2 inputs), over rows
    for (r = 0; r < rows; r++) {
        int32_t acc = 0;
        // expect: part of the row lift
        for (c = 0; c < cols; c++)
            acc += w[r * ld + c] * x[c];
        y[r] = acc;
    }
    check = r * 1000 + c;
    // expect: lifted reduce add over convert(p, u32), convert(p, u32) * convert(p, u32) (u32, 1 input), over rows
    for (r = 0; r < rows; r++) {
        const uint8_t* row = p + r * ld;
        uint32_t s = 0, ss = 0;
        // expect: part of the row lift
        for (c = 0; c < cols; c++) {
            s += row[c];
            ss += row[c] * row[c];
        }
        sums[r] = s;
        squares[r] = ss;
    }
    check = check * 7 + r * 1000 + c;
    // expect: not lifted:
    for (r = 0; r < rows; r++) check = check * 31 + y[r] + sums[r] * 3 + squares[r];
    return check;
}
