// SPDX-License-Identifier: Apache-2.0
// Small helpers of the file called in the loop, as image code writes them (darknet's get_pixel,
// set_pixel, add_pixel: a struct by value, an assert, an early return out of range): their
// bodies are read with the parameters standing for the arguments. The asserts and the range tests
// become conditions the call checks at both ends of the range (they are linear in the counter);
// where they do not hold everywhere (dst narrower than the row, dx < 0), the loop runs as written
// and skips the stores out of range, as set_pixel does. Tests that are not ranges, helpers that
// assign their position parameters or read a global the caller's local hides stay loops.
#include <assert.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    int w, h, c;
    float *data;
} image;

static float get_pixel(image m, int x, int y, int c)
{
    assert(x < m.w && y < m.h && c < m.c);
    return m.data[c*m.h*m.w + y*m.w + x];
}
static void set_pixel(image m, int x, int y, int c, float val)
{
    if (x < 0 || y < 0 || c < 0 || x >= m.w || y >= m.h || c >= m.c) return;
    assert(x < m.w && y < m.h && c < m.c);
    m.data[c*m.h*m.w + y*m.w + x] = val;
}
static void add_pixel(image m, int x, int y, int c, float val)
{
    assert(x < m.w && y < m.h && c < m.c);
    m.data[c*m.h*m.w + y*m.w + x] += val;
}
static void set_odd(image m, int x, float val)
{
    if (x % 2) return;
    m.data[x] = val;
}
static float shifted(const float *a, int k)
{
    k -= 1;
    return a[k + 1];
}
static float gain = 2.0f;
static float scaled(image m, int x)
{
    return gain * m.data[x];
}

static float out_a[100016], out_b[100016];

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

uint64_t inlined_helpers(const float* x, int n, int dx, int pad, float s) {
    int c, i, j;
    float r, g;
    if (n > 100000) n = 100000;
    dx = dx % 4;
    pad = pad % 4;
    image src = {n, 1, 1, (float*)x};
    image dst = {n + 3 + pad, 1, 1, out_a + 4};
    image sum = {n, 1, 1, out_b};
    image img = {n / 3, 3, 1, out_b};
    // expect: lifted inlined_helpers_lifted (map f32 -> f32 (1 input, 1 output))
    for (c = 0; c < n; ++c) {
        float val = s * get_pixel(src, c, 0, 0);
        set_pixel(dst, c + dx, 0, 0, val);
    }
    // expect: lifted inlined_helpers_lifted_2 (map f32 -> f32 (2 inputs, 1 output))
    for (c = 0; c < n; ++c) add_pixel(sum, c, 0, 0, get_pixel(src, c, 0, 0));
    // expect: lifted inlined_helpers_lifted_3 (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) {
        r = x[i] * 0.5f;
        g = r + 1.0f;
        out_b[i] = g * r;
    }
    // One call per row: the nest's conditions are tested per row, not yet for the whole nest.
    // expect: not lifted: stores under conditions
    for (j = 0; j < img.h; ++j)
        // expect: lifted inlined_helpers_lifted_4 (map f32 -> f32 (1 input, 1 output))
        for (i = 0; i < img.w; ++i) set_pixel(img, i, j, 0, get_pixel(img, i, j, 0) * s);
    // expect: not lifted: is not a range
    for (c = 0; c < n; ++c) set_odd(dst, c, x[c]);
    // expect: not lifted: is not `c + constant`
    for (c = 0; c < n; ++c) out_a[c] = shifted(x, c);
    {
        float gain = 3.0f;
        // expect: not lifted: names another variable
        for (c = 0; c < n; ++c) out_b[c] = scaled(src, c) + gain;
    }
    return hash(out_a, n + 8, hash(out_b, n, 0));
}
