// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// Minima and maxima of expressions and several of them in one loop, as image and audio code
// writes them: an image's range (darknet's normalize_image), the peak magnitude of a block
// (llama2.c's quantizer, `if (val > wmax) wmax = val;` with `val = fabsf(x[i])`), the range of
// 16-bit samples beside their sum, and a byte maximum into an int with a non-strict compare.
// A float form where a NaN term would replace the accumulator stays a loop.
#include <math.h>
#include <stdint.h>

float ranges(const float* x, const int16_t* s, const uint8_t* u, int n, float* lo_out, float* peak_out, int32_t* s_range, int* u_max) {
    float lo = x[0], hi = x[0];
    // expect: lifted reduce max of x, min of x (f32, 1 input)
    for (int i = 0; i < n; ++i) {
        float v = x[i];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    float wmax = 0.0f;
    // expect: lifted reduce max over abs(x) (f32, 1 input)
    for (int i = 0; i < n; i++) {
        float val = fabsf(x[i]);
        if (val > wmax) {
            wmax = val;
        }
    }
    float peak = 0;
    // expect: lifted reduce max over abs(x) (f32, 1 input)
    for (int i = 0; i < n; i++)
        if (fabs(x[i]) > peak)
            peak = fabs(x[i]);
    int smin = 32767, smax = -32768, ssum = 0;
    // expect: lifted reduce max of convert(s, i32), min of convert(s, i32), add of convert(s, i32) (i32, 1 input)
    for (int i = 0; i < n; i++) {
        ssum += s[i];
        smin = s[i] < smin ? s[i] : smin;
        if (smax <= s[i]) smax = s[i];
    }
    int um = -1;
    // expect: lifted reduce max u8
    for (int i = 0; i < n; i++)
        if (!(u[i] < um)) um = u[i];
    float a = 1.0f, b = -1.0f;
    // expect: not lifted: a NaN term replaces
    for (int i = 0; i < n; i++) {
        a = a < x[i] ? a : x[i];
        b = b > x[i] ? b : x[i] * 2.0f;
    }
    *lo_out = lo;
    *peak_out = wmax + peak;
    *s_range = smax - smin + ssum;
    *u_max = um;
    return hi + a + b;
}
