// SPDX-License-Identifier: Apache-2.0
// lift-args: --math-ulp 1
// cflags: -fno-math-errno
// diff: ulp 4
// min-n: 1
// expm1 and log1p as loss and activation code writes them (ELU, softplus, log-loss near 1): with
// --math-ulp 1 the kernels compute them within 1 ULP of the exact result (not bit for bit as libm),
// so the differential compares within 4 ULP: libm's error, the kernel's, and the roundings around.
#include <math.h>

static float elu[100000], softplus[100000];
static double logloss[100000];

/* The middle and the last element of each result (the last one computed in a tail). */
void expm1_log1p(const float* x, const double* p, int n, float* e1, float* e2, float* s1, float* s2, double* l1, double* l2) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) elu[i] = x[i] > 0.0f ? x[i] : expm1f(x[i]);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) softplus[i] = log1pf(expf(-fabsf(x[i]))) + fmaxf(x[i], 0.0f);
    // expect: lifted map f64 -> f64 (1 input, 1 output)
    for (int i = 0; i < n; ++i) logloss[i] = -log1p(-p[i]);
    *e1 = elu[n / 2];
    *e2 = elu[n - 1];
    *s1 = softplus[n / 2];
    *s2 = softplus[n - 1];
    *l1 = logloss[n / 2];
    *l2 = logloss[n - 1];
}
