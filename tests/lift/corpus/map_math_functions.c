// SPDX-License-Identifier: Apache-2.0
// lift-args: --math-ulp 1
// cflags: -fno-math-errno
// diff: ulp 4
// min-n: 1
// exp, exp2, log, log2 and tanh in element-wise loops, as activation and loss code writes them:
// with --math-ulp 1 the kernels compute them within 1 ULP of the exact result (not bit for bit as
// libm), so the differential compares within 4 ULP: libm's own error and the kernel's, twice in a
// product of two functions, and one rounding after them. (Expressions that cancel, such as
// log2f(p) + exp2f(p), amplify any function's error; they are left out of this test on purpose.) expf of a float promoted to double (exp(x)) and rounded back is
// lifted as the f32 function: within the accepted bound of the exact value.
#include <math.h>

static float act[100000], gate[100000], squash[100000], lse[100000], bits[100000];
static double nll[100000];

static inline float logistic_activate(float x) { return 1.f / (1.f + expf(-x)); }

/* The middle and the last element of each result (the last one computed in a tail), compared
   within the ULP bound by the harness. */
void activations(const float* x, const float* p, const double* d, int n, float* a1, float* a2, float* g1, float* g2, float* s1, float* s2, float* l1, float* l2, float* b1, float* b2, double* n1, double* n2) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) act[i] = expf(x[i]) * exp2f(x[i] * 0.5f);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) gate[i] = logistic_activate(x[i]);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) squash[i] = tanhf(x[i]);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) lse[i] = (float)exp(x[i]);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) bits[i] = log2f(p[i]) * 0.5f;
    // expect: lifted map f64 -> f64 (1 input, 1 output)
    for (int i = 0; i < n; ++i) nll[i] = -log(d[i]);
    *a1 = act[n / 2];
    *a2 = act[n - 1];
    *g1 = gate[n / 2];
    *g2 = gate[n - 1];
    *s1 = squash[n / 2];
    *s2 = squash[n - 1];
    *l1 = lse[n / 2];
    *l2 = lse[n - 1];
    *b1 = bits[n / 2];
    *b2 = bits[n - 1];
    *n1 = nll[n / 2];
    *n2 = nll[n - 1];
}
