// SPDX-License-Identifier: Apache-2.0
// A fixed-point residual: products subtracted from a starting value (acc -= x * h is acc plus the
// sum of the negated products, exact in 32 bits); `acc = x * h - acc` alternates the sign of acc
// and stays a loop.
#include <stdint.h>

int32_t residual(const int16_t* x, const int16_t* h, int n, int32_t bias, int32_t* alternating) {
    int32_t acc = bias, alt = bias;
    // expect: lifted reduce add over -(convert(x, i32) * convert(h, i32))
    for (int i = 0; i < n; i++) acc -= x[i] * h[i];
    // expect: not lifted: is not alt -
    for (int i = 0; i < n; i++) alt = x[i] * h[i] - alt;
    *alternating = alt;
    return acc;
}
