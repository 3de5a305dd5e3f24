// SPDX-License-Identifier: Apache-2.0
// A 37-column matrix transposed into a buffer, read row by row: one transpose kernel call.
#include <stdint.h>
#include <string.h>

static float t[100000];

uint64_t transpose_hash(const float* a, int n) {
    const int cols = 37;
    const int rows = n / cols;
    // expect: lifted transpose f32
    for (int r = 0; r < rows; ++r)
        // expect: part of the row lift
        for (int c = 0; c < cols; ++c) t[c * rows + r] = a[r * cols + c];
    uint64_t h = 0;
    // expect: not lifted:
    for (int k = 0; k < rows * cols; ++k) {
        uint32_t bits;
        memcpy(&bits, &t[k], 4);
        h = h * 1000003u + bits;
    }
    return h;
}
