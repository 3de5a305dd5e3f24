// SPDX-License-Identifier: Apache-2.0
// lift-args: --math-ulp 1
// cflags: -fno-math-errno
// diff: ulp 4
// min-n: 1
// sinf and cosf as rotary position embeddings and DSP oscillators write them: with --math-ulp 1
// the kernels compute them within 1 ULP of the exact result, for every f32 argument (huge ones
// too: the reduction is exact), so the differential compares within 4 ULP (a sum of the two that
// cancels would amplify any function's error, libm's too; left out). sin of a double stays:
// the f64 functions need a full-range reduction that is not built yet.
#include <math.h>

static float rot_cos[100000], rot_sin[100000], chirp[100000];
static double wave[100000];

/* The middle and the last element of each result (the last one computed in a tail). */
void sin_cos(const float* angle, const float* t, const double* d, int n, float* c1, float* c2, float* s1, float* s2, float* h1, float* h2, double* w1) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) rot_cos[i] = cosf(angle[i] * 0.01f);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) rot_sin[i] = sinf(angle[i] * 0.01f);
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (int i = 0; i < n; ++i) chirp[i] = sinf(t[i] * t[i]) * cosf(t[i]);
    // expect: not lifted: simdgen cannot build its spec
    for (int i = 0; i < n; ++i) wave[i] = sin(d[i]);
    *c1 = rot_cos[n / 2];
    *c2 = rot_cos[n - 1];
    *s1 = rot_sin[n / 2];
    *s2 = rot_sin[n - 1];
    *h1 = chirp[n / 2];
    *h2 = chirp[n - 1];
    *w1 = wave[n - 1];
}
