// SPDX-License-Identifier: Apache-2.0
// Element-wise loops in helpers called with overlapping arrays, as C allows: where an output
// overlaps another array, or an element the loop reads as a scalar (src[i] * arena[50]), each
// result may feed a later element, so the rewrite checks the addresses and runs the loop itself.
#include <stdint.h>
#include <string.h>

static float arena[100064];

static void scale_into(float* dst, const float* src, int n, float s) {
    // expect: lifted scale_into_lifted (map f32 -> f32 (1 input, 1 output))
    for (int i = 0; i < n; i++) dst[i] = src[i] * s;
}

static void scale_by_arena(float* dst, const float* src, int n) {
    // expect: lifted scale_by_arena_lifted (map f32 -> f32 (2 inputs, 1 output))
    for (int i = 0; i < n; i++) dst[i] = src[i] * arena[50] + dst[i];
}

static void blend(float* a, float* b, const float* w, int n) {
    // expect: lifted blend_lifted (map f32 -> f32 (3 inputs, 2 outputs))
    for (int i = 0; i < n; i++) {
        float t = a[i];
        a[i] = t * w[i] + b[i];
        b[i] = t - w[i];
    }
}

uint64_t alias_calls(const float* x, int n, int shift) {
    int k = (shift & 7) - 3;  /* -3..4 */
    int m = n - 8;
    uint64_t h = 0;
    if (m > 100000) m = 100000;
    if (m < 0) m = 0;
    memset(arena, 0, sizeof arena);
    memcpy(arena + 8, x, (size_t)m * sizeof(float));
    scale_into(arena + 8 + k, arena + 8, m, 0.5f);      /* overlapping, either direction */
    scale_into(arena + 8, arena + 8, m, 1.5f);          /* the same array in and out */
    scale_by_arena(arena + 8, arena + 8 + k, m);        /* arena[50] is among the outputs */
    memcpy(arena + 60000, x, (size_t)(m > 30000 ? 30000 : m) * sizeof(float));
    scale_by_arena(arena + 8, arena + 60000, m > 30000 ? 30000 : m);  /* apart, but arena[50] is an output */
    scale_by_arena(arena + 60000, arena + 8, m > 30000 ? 30000 : m);  /* apart, arena[50] is not an output */
    blend(arena + 8, arena + 8 + k, arena + 16, m);     /* two outputs that may overlap */
    blend(arena + 8, arena + 50008, arena + 16, m > 50000 ? 50000 : m);
    // expect: not lifted:
    for (int i = 0; i < 100064; i++) {
        uint32_t b;
        memcpy(&b, &arena[i], 4);
        if (arena[i] != arena[i]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h;
}
