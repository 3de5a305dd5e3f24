// SPDX-License-Identifier: Apache-2.0
// fma()/fmaf() calls in element-wise loops: the map family's fma (one rounding), in place and
// in double; the spec asks for avx2+fma (an fma needs FMA3 on AVX2). fma() of floats is C's
// double fma of the promoted operands, rounded to float after: written out as such.
#include <math.h>
#include <stdint.h>

static float y[100000];
static double d[100000];
static float z[100000];

double fma_hash(const float* x, const double* w, float alpha, int n) {
    if (n > 100000) n = 100000;
    // expect: not lifted: as an element-wise loop: the value uses the loop index
    for (int i = 0; i < n; ++i) y[i] = (float)i * 0.25f;
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) y[i] = fmaf(alpha, x[i], y[i]);
    // expect: lifted map f64 -> f64 (1 input, 1 output)
    for (int i = 0; i < n; ++i) d[i] = fma(w[i], w[i], -1.0);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) z[i] = fma(x[i], alpha, 0.5);
    double h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 0.5 + y[i] + d[i] + z[i];
    return h;
}
