// SPDX-License-Identifier: Apache-2.0
// C library style: parameters in a state struct read through a pointer (`st->gain`), scratch
// variables declared at the top of the body and assigned later (C89), positions computed into a
// local (`int index = b * spatial + k`), and a sign written as an integer select converted to float.
#include <stdint.h>
#include <string.h>

struct state {
    float gain, floor_;
    float* buf;
};

static float out[100000], bin[100000], norm[100000];

static uint64_t hashf(const float* v, int count, uint64_t h) {
    int k;
    // expect: not lifted:
    for (k = 0; k < count; k++) {
        uint32_t b;
        memcpy(&b, &v[k], 4);
        if (v[k] != v[k]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h;
}

uint64_t struct_state(const float* x, const float* mean, int n, float gain) {
    struct state st0;
    struct state* st = &st0;
    int i, b, k, spatial = 48;
    if (n > 100000) n = 100000;
    st0.gain = gain;
    st0.floor_ = -0.5f;
    st0.buf = out;
    // expect: lifted struct_state_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) {
        float tmp;
        tmp = x[i] * st->gain;
        if (tmp < st->floor_) tmp = st->floor_;
        st->buf[i] = tmp;
    }
    // expect: lifted struct_state_lifted_2 (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) bin[i] = (x[i] > 0) ? 1 : -1;
    memcpy(norm, x, (size_t)(n > 0 ? n : 0) * sizeof(float));
    // expect: not lifted: is not `b < end`
    for (b = 0; b * spatial + spatial <= n && b < 2000; b++) {
        float inv = 1.0f / (mean[b] * mean[b] + 1.0f);
        // expect: lifted struct_state_lifted_3 (map f32 -> f32 (1 input, 1 output))
        for (k = 0; k < spatial; ++k) {
            int index = b * spatial + k;
            norm[index] = (norm[index] - mean[b]) * inv;
        }
    }
    // expect: not lifted: read where some path through the body has not assigned it
    for (i = 0; i < n; i++) {
        float t;
        if (x[i] > 0) t = x[i];
        if (x[i] > 0) out[i] = t;  /* assigned wherever it is read, but not on every path */
    }
    return hashf(out, 100000, hashf(bin, 100000, hashf(norm, 100000, 0))) + (uint64_t)(i + b + k);
}
