// SPDX-License-Identifier: Apache-2.0
// Stores under a condition the loop does not change: a NULL check (`if (delta) delta[i] = ...`,
// an optional output) is tested once around the call, never dropped (the pointer may be NULL);
// `if (mode) ... else ...` with a number is a select of both values. Stores under different such
// checks (`if (da) ...; if (db) ...;`) make one call when all of them hold, else the loop runs; so
// does an optional input read as `b ? b[i] : 0` (darknet's weighted_sum_cpu).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static float out_a[100000], out_b[100000], out_c[100000];

static uint64_t hash(const float* v, int n, uint64_t h) {
    int i;
    // expect: not lifted:
    for (i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], 4);
        if (v[i] != v[i]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h;
}

uint64_t guarded(const float* x, const float* y, int n, int which) {
    float* delta = (which & 1) ? out_a : NULL;
    float* other = (which & 2) ? out_b : 0;
    int mode = which & 4;
    if (n > 100000) n = 100000;
    // expect: lifted guarded_lifted (map f32 -> f32 (1 input, 1 output))
    for (int i = 0; i < n; i++)
        if (delta) delta[i] = x[i] * 2.0f;
    // expect: lifted guarded_lifted_2 (map f32 -> f32 (3 inputs, 1 output))
    for (int i = 0; i < n; i++) {
        if (other == NULL) {
        } else {
            if (x[i] < y[i]) other[i] = x[i] - y[i];
        }
    }
    // expect: lifted guarded_lifted_3 (map f32 -> f32 (2 inputs, 1 output))
    for (int i = 0; i < n; i++) {
        if (mode) out_c[i] = x[i] + y[i];
        else out_c[i] = x[i] * y[i];
    }
    // expect: lifted guarded_lifted_4 (map f32 -> f32 (2 inputs, 2 outputs))
    for (int i = 0; i < n; i++) {
        if (delta) delta[i] = y[i];
        if (other) other[i] = x[i];
    }
    // expect: lifted guarded_lifted_5 (map f32 -> f32 (2 inputs, 1 output))
    for (int i = 0; i < n; i++) out_c[i] = x[i] * 0.5f + (delta ? delta[i] : 1.0f);
    return hash(out_c, n, hash(out_b, n, hash(out_a, n, 0)));
}
