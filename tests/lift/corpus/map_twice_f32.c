// SPDX-License-Identifier: Apache-2.0
// The seed's B[i] = A[i] * 2 (seed 001), into a buffer; the function returns a hash of the bits.
#include <stdint.h>
#include <string.h>

static float b[100000];

uint64_t twice_hash(const float* a, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) b[i] = a[i] * 2;
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &b[i], 4);
        if (b[i] != b[i]) bits = 0x7fc00000u;  // any NaN
        h = h * 1000003u + bits;
    }
    return h;
}
