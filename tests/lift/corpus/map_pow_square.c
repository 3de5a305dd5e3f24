// SPDX-License-Identifier: Apache-2.0
// pow(x, 2) as darknet writes squared errors: gcc and clang turn it into x * x at -O1 and above
// (with -fmath-errno too), so lift takes it as that product, in the call's type (double for pow
// of a float). Any other exponent stays a call: pow has no vector form here.
#include <math.h>

static double sq[100000];
static float sqf[100000], cube[100000];

double pow_square(const float* x, const float* y, const double* d, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32,f64 -> f64 (3 inputs, 1 output)
    for (int i = 0; i < n; ++i) sq[i] = pow(x[i] - y[i], 2) + pow(d[i], 2.0);
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) sqf[i] = powf(x[i], 2.0f) - powf(y[i] * 0.5f, 2);
    // expect: not lifted: `pow` with an exponent other than the constant 2
    for (int i = 0; i < n; ++i) cube[i] = pow(x[i], 3);
    double h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 0.5 + sq[i] + sqf[i] + cube[i];
    return h;
}
