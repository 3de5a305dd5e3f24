// SPDX-License-Identifier: Apache-2.0
// A store under an `if` without `else`, as an audio denoiser updates its noise estimate: where the
// condition is false the element keeps its value, so the lift is select(cond, value, noise) on the
// in-place output (a masked store). C's `||` reads ps[i] and noise[i] only where upd[i] is zero;
// the kernel reads every element of the arrays the loop reads.
#include <stdint.h>
#include <string.h>

static float noise[100000];

uint64_t noise_update(const float* ps, const int* upd, const float* init, int n, float beta) {
    int i;
    float beta_1 = 1.0f - beta;
    uint64_t h = 0;
    if (n > 100000) n = 100000;
    // expect: lifted noise_update_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) noise[i] = init[i];
    // expect: lifted noise_update_lifted_2 (map i32,f32 -> f32 (3 inputs, 1 output))
    for (i = 0; i < n; i++)
        if (!upd[i] || ps[i] < noise[i])
            noise[i] = beta_1 * noise[i] + beta * ps[i];
    // expect: lifted noise_update_lifted_3 (map f32 -> f32 (2 inputs, 1 output))
    for (i = 0; i < n; i++) {
        if (noise[i] > 1.0f) {
            if (ps[i] > 0.0f) noise[i] = ps[i];
        } else {
            noise[i] = noise[i] * 0.25f;
        }
        if (noise[i] != noise[i]) noise[i] = 0.0f;  /* reads the value just stored */
    }
    // expect: lifted noise_update_lifted_4 (map f32 -> f32 (2 inputs, 1 output))
    for (i = 0; i < n; i++) {
        if (noise[i] > 1.0f) {
            if (ps[i] > 0.0f) noise[i] = ps[i];
        } else {
            noise[i] = noise[i] * 0.25f;
        }
    }
    // expect: not lifted:
    for (i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &noise[i], 4);
        if (noise[i] != noise[i]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h + (uint64_t)i;
}
