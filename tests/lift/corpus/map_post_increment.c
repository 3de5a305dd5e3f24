// SPDX-License-Identifier: Apache-2.0
// Positions stepped inside the expressions that use them, as libpng and speexdsp write them:
// `*dp++ = (png_byte)(*rp++ - *pp++)` (the PNG Up filter), `ch[t6++] += ar * c[t8++]` (smallft's
// twiddle updates), `*++dp = *++sp`: each step runs once per iteration, so each is a position as if
// it were stepped by a statement of its own (before or after the read), and the rewrite leaves the
// pointers and positions where the loop would. A step under a condition (`if (x[i] > 0) *dp++ =
// x[i]`, a compaction) or a pointer stepped twice stays a loop.
#include <stdint.h>
#include <string.h>

static uint8_t filtered[100002];
static float acc_a[100002], acc_b[100002];
static float packed[100002];

static uint64_t hash(const void* p, size_t bytes, uint64_t h) {
    const unsigned char* b = (const unsigned char*)p;
    size_t k;
    // expect: not lifted:
    for (k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

/* NaNs as one canonical NaN: their payloads and signs are not specified by C */
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

uint64_t post_increment(const uint8_t* row, const uint8_t* prev, const float* x, int n, float ar) {
    int i, t6, t8, t9;
    const uint8_t *rp = row, *pp = prev;
    uint8_t* dp = filtered;
    const float* sp;
    float* op;
    if (n > 100000) n = 100000;
    memset(filtered, 0, sizeof filtered);
    memset(acc_a, 0, sizeof acc_a);
    memset(acc_b, 0, sizeof acc_b);
    memset(packed, 0, sizeof packed);
    // expect: lifted post_increment_lifted (map u8 -> u8 (2 inputs, 1 output))
    for (i = 0; i < n; i++)
        *dp++ = (uint8_t)(((int)*rp++ - (int)*pp++) & 0xff);
    t6 = 1;
    t8 = 0;
    t9 = n > 0 ? n - 1 : 0;
    // expect: lifted post_increment_lifted_2 (map f32 -> f32 (4 inputs, 2 outputs))
    for (i = 0; i < n; i++) {
        acc_a[t6++] += ar * x[t8++];
        acc_b[t6 - 1 + 0 * t9] -= x[i];
    }
    sp = x;
    op = packed;
    // expect: lifted post_increment_lifted_3 (map f32 -> f32 (1 input, 1 output))
    for (i = 1; i < n; i++)
        *++op = *++sp * 0.5f;
    op = packed;
    // expect: not lifted:
    for (i = 0; i < n; i++)
        if (x[i] > 0) *op++ = x[i];
    sp = x;
    /* sp steps twice per iteration, i by 2 (positions read it: a stride of 2) */
    // expect: lifted post_increment_lifted_4 (map f32 -> f32 (2 inputs, 1 output))
    for (i = 0; i + 1 < n; i += 2) {
        float s = *sp++;
        packed[i] = s + *sp++;
    }
    return hash(filtered, sizeof filtered, hashf(acc_a, 100002, hashf(acc_b, 100002, hashf(packed, 100002, 0)))) +
           (uint64_t)(dp - filtered) * 7 + (uint64_t)(rp - row) * 11 + (uint64_t)t6 * 13 + (uint64_t)t8 * 17 + (uint64_t)(op - packed) * 19;
}
