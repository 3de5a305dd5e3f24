// SPDX-License-Identifier: Apache-2.0
// Inputs read at a constant stride, as DSP and image code writes them: a power spectrum of
// interleaved complex values (`ft[2*i-1]`, `ft[2*i]`), gray from RGB pixels through a pointer that
// steps by 3, a dot product of the two halves of interleaved pairs and a maximum of every other
// element: the spec's input `stride`. The call checks that no output overlaps the strided input's
// whole extent (stride * n elements): power_of into the second half of its own input runs the loop.
#include <stdint.h>
#include <string.h>

static float ft[2 * 100000 + 2], ps[2 * 100000 + 2];
static uint8_t rgb[3 * 100000], gray[100000];
static int32_t pairs[2 * 100000];

static void power_of(const float* in, float* out, int len) {
    int i;
    // expect: lifted power_of_lifted (map f32 -> f32 (2 inputs, 1 output))
    for (i = 1; i < len; i++) out[i] = in[2 * i - 1] * in[2 * i - 1] + in[2 * i] * in[2 * i];
}

static void gray_of(const uint8_t* pixels, uint8_t* out, int n) {
    const uint8_t* sp = pixels;
    uint8_t* dp = out;
    // expect: lifted gray_of_lifted (map u8 -> u8 (3 inputs, 1 output))
    for (int i = 0; i < n; i++) {
        *dp = (uint8_t)((sp[0] * 77 + sp[1] * 150 + sp[2] * 29) >> 8);
        sp += 3;
        dp++;
    }
}

static int64_t pair_dot(const int32_t* x, int n) {
    int64_t s = 0;
    // expect: lifted pair_dot_lifted (reduce add over
    for (int i = 0; i < n; i++) s += (int64_t)x[2 * i] * x[2 * i + 1];
    return s;
}

static float odd_peak(const float* x, int n) {
    float m = -1e30f;
    // expect: lifted odd_peak_lifted (reduce max over
    for (int i = 0; i < n; i++)
        if (x[2 * i + 1] > m) m = x[2 * i + 1];
    return m;
}

static uint64_t fhash(const float* v, int n, uint64_t h) {
    // expect: not lifted:
    for (int i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], 4);
        if (v[i] != v[i]) b = 0x7fc00000u;  /* NaN payloads may differ */
        h = h * 1000003u + b;
    }
    return h;
}

static uint64_t hash(const void* v, size_t bytes, uint64_t h) {
    const uint8_t* b = (const uint8_t*)v;
    // expect: not lifted:
    for (size_t k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

uint64_t strided_inputs(const float* x, const uint8_t* p, const int32_t* q, int n) {
    uint64_t h = 0;
    if (n > 100000) n = 100000;
    if (n < 0) n = 0;
    memset(ft, 0, sizeof ft);
    memset(ps, 0, sizeof ps);
    // expect: not lifted:
    for (int i = 0; i < n; i++) {
        ft[2 * i] = x[i];
        ft[2 * i + 1] = x[n - 1 - i] * 0.5f;
        rgb[3 * i] = p[i];
        rgb[3 * i + 1] = p[n - 1 - i];
        rgb[3 * i + 2] = (uint8_t)(p[i] ^ 0x5a);
        pairs[2 * i] = q[i];
        pairs[2 * i + 1] = q[n - 1 - i];
    }
    power_of(ft, ps, n);
    h = fhash(ps, n, h);
    power_of(ft, ft + n / 2, n / 2);  /* the output is inside the input's strided extent, read later */
    h = fhash(ft, 2 * n, h);
    gray_of(rgb, gray, n);
    h = hash(gray, (size_t)n, h);
    gray_of(rgb, rgb + n / 3, n / 3);  /* likewise, bytes */
    h = hash(rgb, 3 * (size_t)n, h);
    h = h * 1000003u + (uint64_t)pair_dot(pairs, n);
    float m = odd_peak(ft, n);
    if (m == 0.0f) m = 0.0f;  /* -0.0 and +0.0 tie: either may come out */
    if (m != m) m = 0.25f;
    return hash(&m, sizeof m, h);
}
