// SPDX-License-Identifier: Apache-2.0
// sqrt and the roundings to integral floats in element-wise loops: the map family's sqrt, floor,
// ceil, trunc and nearest (rint and nearbyint: ties to even). sqrt() and the roundings of a float
// promoted to double and stored as float are the float operations (no rounding is lost), so they
// run in f32 lanes. round() (ties away from zero) stays a loop. C's sqrt sets errno for a negative
// argument (unless -fno-math-errno): the kernel reports one and the rewrite sets errno
// (map_sqrt_errno.c); an argument that cannot be negative (a sum of squares, fabs) needs no
// report. fmax/fmin ignore a NaN operand, as C's do.
#include <float.h>
#include <math.h>
#include <stdint.h>

static float norm[100000], low[100000], clipped[100000], limits[100000];
static double up[100000], even[100000], away[100000];

double float_math(const float* x, const float* y, const double* d, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) norm[i] = sqrtf(x[i] * x[i] + y[i] * y[i]);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) low[i] = floor(x[i]) - truncf(x[i] * 0.5f);
    // expect: lifted map f64 -> f64 (1 input, 1 output)
    for (int i = 0; i < n; ++i) up[i] = ceil(d[i]) + sqrt(d[i]);
    // expect: lifted map f64 -> f64 (1 input, 1 output)
    for (int i = 0; i < n; ++i) up[i] = ceil(d[i]) + sqrt(fabs(d[i]));
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) limits[i] = x[i] > y[i] ? FLT_MAX : -FLT_MAX + y[i] * FLT_MIN + x[i] * 1.40129846e-45f;
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) clipped[i] = fminf(fmaxf(x[i], y[i]), 1.0f) + fabsf(y[i]);
    // expect: lifted map f64,f32 -> f64 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) even[i] = rint(d[i]) - nearbyint(x[i]);
    // expect: not lifted: `round` rounds halfway cases away from zero
    for (int i = 0; i < n; ++i) away[i] = round(d[i]);
    double h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 0.5 + norm[i] + low[i] + up[i] + even[i] + away[i] + clipped[i] + limits[i];
    return h;
}
