// SPDX-License-Identifier: Apache-2.0
// cflags: -ffast-math
// diff: ulp 8
// min-n: 1
// The SiLU of llama2.c's SwiGLU in a file built with -ffast-math (its Makefile's runfast target, -Ofast): the
// flags accept approximate math functions (gcc then calls glibc's vector expf, within 4 ULP), so
// lift takes expf without --math-ulp, at that 4 ULP bound. The differential allows the kernel's 4
// ULP, libm's own error and the few roundings -ffast-math may reorder (a product of three values
// is left out: -ffast-math may multiply the two large ones first and overflow where the loop did not).
#include <math.h>

static float act[100000];

/* The middle and the last element (the last one computed in a tail), compared within the bound. */
void silu(const float* h, const float* g, int n, float* mid, float* last) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (2 inputs, 1 output)
    for (int i = 0; i < n; i++) act[i] = h[i] / (1.0f + expf(-h[i])) + g[i];
    *mid = act[n / 2];
    *last = act[n - 1];
}
