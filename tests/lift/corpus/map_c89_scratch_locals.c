// SPDX-License-Identifier: Apache-2.0
// C89 declares its scratch variables at the top of the function (`float r, g, b;`) and assigns them
// in the loop's body: when nothing but the loop names them and they have no initial value, they
// are the body's own locals, not values the loop carries (darknet's yuv_to_rgb). A variable also
// named after the loop, or read before the body assigns it, stays the loop's to carry.
#include <stdint.h>
#include <string.h>

static float out_a[100000], out_b[100000];

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

uint64_t c89_scratch(const float* x, int n, float s) {
    int i;
    float t, u, last, prev;
    if (n > 100000) n = 100000;
    // expect: lifted c89_scratch_lifted (map f32 -> f32 (1 input, 2 outputs))
    for (i = 0; i < n; i++) {
        t = x[i] * s;
        if (t < 0) u = -t;
        else u = t;
        out_a[i] = u + t;
        out_b[i] = u;
    }
    last = 0.0f;
    // expect: not lifted: the loop changes `last`
    for (i = 0; i < n; i++) {
        last = x[i] + 1.0f;
        out_a[i] = last * s;
    }
    if (n < -100000) {  // never: the first iteration would read prev uninitialized
        // expect: not lifted: is read where some path
        for (i = 0; i < n; i++) {
            out_b[i] = prev;
            prev = x[i];
        }
    }
    return hash(out_a, n, hash(out_b, n, 0)) + (uint64_t)(last > 1.0f);
}
