// SPDX-License-Identifier: Apache-2.0
// Loops that walk pointers or a second position along with their counter, as image and audio code
// writes them (`*dp = ...; dp++; sp++;`, `out[j] = ...; j++;`): each is the position before the
// loop plus the iterations done, and the rewrite leaves the pointers and positions where the loop
// would have.
#include <stdint.h>
#include <string.h>

static uint8_t rgb_out[100000];
static float mono[100000];
static int32_t packed[100000];

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

uint64_t walking(const uint8_t* src, const float* left, const float* right, int n, int offset) {
    int i, j;
    const uint8_t* sp = src;
    uint8_t* dp = rgb_out;
    float* op = mono;
    int32_t total = 0;
    if (n > 100000) n = 100000;
    offset &= 1023;
    memset(rgb_out, 0, sizeof rgb_out);
    memset(mono, 0, sizeof mono);
    memset(packed, 0, sizeof packed);
    // expect: lifted walking_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = 0; i < n; i++) {
        *dp = (uint8_t)(255 - *sp);
        dp++;
        sp++;
    }
    // expect: lifted walking_lifted_2 (map f32 -> f32 (2 inputs, 1 output))
    for (i = 0; i < n; i++) {
        op[0] = 0.5f * (*left + right[i]);
        op++;
        left += 1;
    }
    j = offset;
    // expect: lifted walking_lifted_3 (map u8 -> i32 (1 input, 1 output))
    for (i = 0; i < n - offset; i++) {
        packed[j] = src[i] * 3;
        j++;
    }
    sp = src;
    // expect: lifted walking_lifted_4 (reduce add u8 -> u32)
    for (i = 0; i < n; i++) {
        total += *sp;
        sp++;
    }
    // expect: not lifted: steps with the loop
    for (i = 0; i < n; i++) {
        packed[i] = j;
        j++;
    }
    return hash(rgb_out, sizeof rgb_out, hashf(mono, 100000, hash(packed, sizeof packed, 0))) + (uint64_t)(dp - rgb_out) +
           (uint64_t)(op - mono) + (uint64_t)(sp - src) + (uint64_t)j + (uint64_t)(uint32_t)total;
}
