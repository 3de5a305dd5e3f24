// SPDX-License-Identifier: Apache-2.0
// Activation functions written as small static functions of one `return`, called from the loop:
// lifted as their expressions (a macro would be the same). C's double constants keep the double
// arithmetic (.1 * x is a double product rounded to float), and a comparison used as a number
// (x * (x > 0)) is 1 or 0.
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float leaky_activate(float x) { return (x > 0) ? x : .1 * x; }
static inline float relu_activate(float x) { return x * (x > 0); }
static inline float ramp_activate(float x) { return x * (x > 0) + .1 * x; }
static inline float hardtan_clip(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline float logistic_activate(float x) { return 1. / (1. + exp(-x)); }
static float calls = 0;
static float counted(float x) { calls += 1; return x; }

static float a[100000], b[100000], c[100000];

static uint64_t hashf(const float* v, int count, uint64_t h) {
    int k;
    // expect: not lifted:
    for (k = 0; k < count; k++) {
        uint32_t bits;
        memcpy(&bits, &v[k], 4);
        if (v[k] != v[k]) bits = 0x7fc00000u;
        h = h * 1000003u + bits;
    }
    return h;
}

uint64_t activations(const float* x, int n, float hi) {
    int i;
    if (n > 100000) n = 100000;
    // expect: lifted activations_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; ++i) a[i] = leaky_activate(x[i]);
    // expect: lifted activations_lifted_2 (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; ++i) b[i] = relu_activate(x[i]) + ramp_activate(x[i]);
    // expect: lifted activations_lifted_3 (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; ++i) c[i] = hardtan_clip(x[i], -1.0f, hi);
    // expect: not lifted: `exp` sets errno on range and domain errors
    for (i = 0; i < n; ++i) a[i] = logistic_activate(x[i]);
    // expect: not lifted: `calls` is not a local variable
    for (i = 0; i < n; ++i) b[i] = counted(x[i]);
    return hashf(a, 100000, hashf(b, 100000, hashf(c, 100000, 0))) + (uint64_t)calls;
}
