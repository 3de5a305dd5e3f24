// SPDX-License-Identifier: Apache-2.0
// Fixed-point DSP: a 16-bit dot product accumulated in 32 bits (int products promoted by C), with
// a size_t counter.
#include <stddef.h>
#include <stdint.h>

int32_t fir_tap(const int16_t* x, const int16_t* h, size_t n) {
    int32_t acc = 0;
    // expect: lifted reduce add over convert(x, i32) * convert(h, i32)
    for (size_t i = 0; i < n; ++i) acc += x[i] * h[i];
    return acc;
}
