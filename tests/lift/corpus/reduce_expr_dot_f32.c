// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance 3
// Dot products and distances as embedding search and DSP code write them: a scaled squared
// distance through a local, a plain dot product, a sum of absolute differences. Float sums are
// reassociated (and their products fused), so only with --reassociate.
#include <math.h>

float similarity(const float* q, const float* x, int n, float w, float* dot_out, float* l1_out) {
    float d = 0.0f, dot = 0.0f, l1 = 0.0f;
    int i;
    // expect: lifted reduce add over (w * (q - x)) * (q - x) (f32, 2 inputs)
    for (i = 0; i < n; i++) {
        float t = q[i] - x[i];
        d += w * t * t;
    }
    // expect: lifted reduce add over q * x
    for (i = 0; i < n; i++) dot += q[i] * x[i];
    // expect: lifted reduce add over abs((q - x))
    for (i = 0; i < n; i++) l1 += fabsf(q[i] - x[i]);
    *dot_out = dot;
    *l1_out = l1;
    return d;
}
