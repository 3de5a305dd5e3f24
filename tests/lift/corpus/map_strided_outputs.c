// SPDX-License-Identifier: Apache-2.0
// Outputs written at a constant stride, as image and DSP code writes them: an RGBA alpha channel
// inverted in place (by index and through a pointer stepping by 4), planar channels interleaved
// into pixels, the bytes of 16-bit samples swapped, a gray+alpha pixel's gray set where its alpha
// is 0, a complex scaling in place: the spec's output `stride`, several positions of one array
// at one stride (offsets different modulo it) as interleaved outputs. The call checks that no
// output overlaps another array's extent (stride * n elements): interleaving into a buffer that
// overlaps the planes runs the loop. Positions that meet (`a[2*i] = a[2*i + 2]`, two stores of
// one residue) stay loops.
#include <stdint.h>
#include <string.h>

static uint8_t rgba[4 * 100000 + 8], planes[3 * 100000 + 8], ga[2 * 100000 + 8];
static float cplx[2 * 100000 + 8];

static void invert_alpha(uint8_t* px, int n) {
    // expect: lifted invert_alpha_lifted (map u8 -> u8 (1 input, 1 output))
    for (int i = 0; i < n; i++) px[4 * i + 3] = (uint8_t)(255 - px[4 * i + 3]);
}

static void invert_alpha_walk(uint8_t* row, int n) {
    uint8_t* dp = row;
    int i;
    // expect: lifted invert_alpha_walk_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = 0; i < n; i++) {
        dp[3] = (uint8_t)(255 - dp[3]);
        dp += 4;
    }
}

static void interleave(const uint8_t* r, const uint8_t* g, const uint8_t* b, uint8_t* out, int n) {
    // expect: lifted interleave_lifted (map u8 -> u8 (3 inputs, 3 outputs))
    for (int i = 0; i < n; i++) {
        out[3 * i] = r[i];
        out[3 * i + 1] = g[i];
        out[3 * i + 2] = b[i];
    }
}

static void swap16(uint8_t* rp, int n) {
    // expect: lifted swap16_lifted (map u8 -> u8 (2 inputs, 2 outputs))
    for (int i = 0; i < n; i++) {
        uint8_t t = rp[2 * i];
        rp[2 * i] = rp[2 * i + 1];
        rp[2 * i + 1] = t;
    }
}

static void gray_where_clear(uint8_t* p, uint8_t background, int n) {
    // expect: lifted gray_where_clear_lifted (map u8 -> u8 (2 inputs, 1 output))
    for (int i = 0; i < n; i++)
        if (p[2 * i + 1] == 0) p[2 * i] = background;
}

static void rotate(float* z, float c, float s, int n) {
    // expect: lifted rotate_lifted (map f32 -> f32 (2 inputs, 2 outputs))
    for (int i = 0; i < n; i++) {
        float re = z[2 * i], im = z[2 * i + 1];
        z[2 * i] = c * re - s * im;
        z[2 * i + 1] = s * re + c * im;
    }
}

static void smear(uint8_t* a, int n) {
    // expect: not lifted: read and written at different positions
    for (int i = 0; i < n; i++) a[2 * i] = (uint8_t)(a[2 * i + 2] + 1);
}

static void twice(uint8_t* a, const uint8_t* x, int n) {
    // expect: not lifted: written at two positions
    for (int i = 0; i < n; i++) {
        a[2 * i] = x[i];
        a[2 * i + 2] = (uint8_t)(x[i] + 1);
    }
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

uint64_t strided_outputs(const uint8_t* p, const float* x, float c, int n) {
    uint64_t h = 0;
    if (n > 100000) n = 100000;
    if (n < 0) n = 0;
    memset(rgba, 0, sizeof rgba);
    memset(planes, 0, sizeof planes);
    memcpy(rgba, p, (size_t)n);
    memcpy(rgba + n, p, (size_t)n);
    memcpy(rgba + 2 * n, p, (size_t)n);
    memcpy(rgba + 3 * n, p, (size_t)n);
    invert_alpha(rgba, n);
    h = hash(rgba, 4 * (size_t)n, h);
    invert_alpha_walk(rgba, n);
    h = hash(rgba, 4 * (size_t)n, h);
    interleave(p, rgba + n, rgba + 2 * n, planes, n);
    h = hash(planes, 3 * (size_t)n, h);
    interleave(rgba, rgba + n / 2, rgba + n, rgba + n / 3, n / 3);  /* the output overlaps the planes: the loop runs */
    h = hash(rgba, 4 * (size_t)n, h);
    swap16(planes, n);
    h = hash(planes, 3 * (size_t)n, h);
    memcpy(ga, p, (size_t)n);
    memcpy(ga + n, p, (size_t)n);
    gray_where_clear(ga, (uint8_t)(n * 7), n);
    h = hash(ga, 2 * (size_t)n, h);
    memcpy(cplx, x, (size_t)n * sizeof(float));
    memcpy(cplx + n, x, (size_t)n * sizeof(float));
    rotate(cplx, c, 0.5f, n);
    h = fhash(cplx, 2 * n, h);
    smear(ga, n / 2);
    twice(ga, p, n / 2);
    return hash(ga, 2 * (size_t)n, h);
}
