// SPDX-License-Identifier: Apache-2.0
// Transposed while walking the OUTPUT's rows (the inner loop reads down a column), with row
// strides on both sides (lda 40 for 33 columns, ldb rows + 3): one transpose kernel call.
#include <cstdint>

static uint16_t out[110000];

uint64_t transpose_walk_hash(const uint16_t* a, long n) {
    const long lda = 40, cols = 33, rows = n / lda, ldb = rows + 3;
    // expect: lifted transpose u16
    for (long c = 0; c < cols; ++c) {
        // expect: part of the row lift
        for (long r = 0; r < rows; ++r) {
            out[c * ldb + r] = a[r * lda + c];
        }
    }
    uint64_t h = 0;
    // expect: not lifted:
    for (long c = 0; c < cols; ++c)
        // expect: not lifted:
        for (long r = 0; r < rows; ++r) h = h * 65599u + out[c * ldb + r];
    return h;
}
