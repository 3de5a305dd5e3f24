// SPDX-License-Identifier: Apache-2.0
// Compound assignments to elements, the usual way to scale, accumulate and normalize in place:
// element-wise maps whose output is also an input (in_place). Narrow elements follow C: `u[i] += 3`
// adds in int and stores the low byte.
#include <stdint.h>
#include <string.h>

static float xs[100000], ys[100000], zs[100000];
static uint8_t us[100000];
static int16_t ss[100000];
static float c[64 * 64];

/* NaNs as one canonical NaN: their payloads and signs are not specified by C */
static uint64_t hashf(const float* v, size_t count, uint64_t h) {
    size_t k;
    // expect: not lifted:
    for (k = 0; k < count; k++) {
        uint32_t b;
        memcpy(&b, &v[k], 4);
        if (v[k] != v[k]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h;
}

static uint64_t hash(const void* p, size_t bytes, uint64_t h) {
    const unsigned char* b = (const unsigned char*)p;
    size_t k;
    // expect: not lifted:
    for (k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

uint64_t compound(const float* x, const float* y, const uint8_t* u, const int16_t* w, int n, float s, float sum) {
    int i, j, k, m;
    if (n > 100000) n = 100000;
    memcpy(xs, x, (size_t)(n > 0 ? n : 0) * sizeof(float));
    memcpy(ys, y, (size_t)(n > 0 ? n : 0) * sizeof(float));
    memcpy(us, u, (size_t)(n > 0 ? n : 0));
    memcpy(ss, w, (size_t)(n > 0 ? n : 0) * sizeof(int16_t));
    memset(zs, 0, sizeof zs);
    // expect: lifted compound_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) xs[i] *= s;
    // expect: lifted compound_lifted_2 (map f32 -> f32 (2 inputs, 1 output))
    for (i = 0; i < n; i++) ys[i] += s * xs[i];
    // expect: lifted compound_lifted_3 (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) xs[i] /= sum;
    // expect: lifted compound_lifted_4 (map f32 -> f32 (3 inputs, 1 output))
    for (i = 0; i < n; i++) zs[i] += xs[i] * ys[i];
    // expect: lifted compound_lifted_5 (map u8 -> u8 (1 input, 1 output))
    for (i = 0; i < n; i++) us[i] += 3;
    // expect: lifted compound_lifted_6 (map i16 -> i16 (2 inputs, 1 output))
    for (i = 0; i < n; i++) {
        ss[i] -= w[i] >> 2;
        ss[i] ^= 0x55;
    }
    /* a matrix product in the i-k-j order: for each i, the k-j nest adds rows of y weighted by
       x[i][k] into c's row i in order (one contraction call per i, the loop's bits); the counters
       are read after the nest */
    m = 0;
    j = k = 0;
    while ((m + 1) * (m + 1) <= n && m < 64) m++;
    memset(c, 0, sizeof c);
    // expect: not lifted: as a row-wise reduction
    for (i = 0; i < m; i++)
        // expect: lifted compound_lifted_7 (accumulate in order c[c] += x * y (f32, a contraction), over rows)
        for (k = 0; k < m; k++)
            // expect: part of the row lift
            for (j = 0; j < m; j++) c[i * m + j] += x[i * m + k] * y[k * m + j];
    return hashf(c, 64 * 64, hash(ss, sizeof ss, hash(us, sizeof us, hashf(zs, 100000, hashf(ys, 100000, hashf(xs, 100000, 0)))))) +
           (uint64_t)(i + j + k);
}
