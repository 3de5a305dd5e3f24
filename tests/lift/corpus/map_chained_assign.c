// SPDX-License-Identifier: Apache-2.0
// Chained assignments, `lo[i] = hi[i] = v` (darknet's image min/max init): the inner store first,
// then the outer one takes its new value as C converts it (`d[i] = f[i] = x + 1e-3` stores the
// double sum rounded to float and widened again, not the double sum).
#include <stdint.h>
#include <string.h>

static float lo[100000], hi[100000], f[100000];
static double d[100000];

uint64_t chained(const float* p, int n) {
    uint64_t h = 0;
    int i;
    float t;
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (1 input, 2 outputs)
    for (i = 0; i < n; i++) lo[i] = hi[i] = p[i] * 2.0f;
    // expect: lifted map f32 -> f32,f64 (1 input, 2 outputs)
    for (i = 0; i < n; i++) d[i] = f[i] = p[i] + 1e-3;
    // expect: lifted map f32 -> f32 (2 inputs, 2 outputs)
    for (i = 0; i < n; i++) {
        float s;
        hi[i] = s = p[i] - 0.5f;
        lo[i] += s;
    }
    // expect: not lifted:
    for (i = 0; i < n; i++) {
        uint64_t b;
        uint32_t w[3];
        memcpy(&b, &d[i], 8);
        memcpy(&w[0], &lo[i], 4);
        memcpy(&w[1], &hi[i], 4);
        memcpy(&w[2], &f[i], 4);
        t = lo[i] + hi[i] + f[i];
        if (t != t) b = 1, w[0] = w[1] = w[2] = 0;  /* NaN payloads may differ */
        h = h * 1000003u + b + w[0] + 3u * w[1] + 7u * w[2];
    }
    return h;
}
