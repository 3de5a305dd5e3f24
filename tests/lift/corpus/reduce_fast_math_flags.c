// SPDX-License-Identifier: Apache-2.0
// cflags: -fassociative-math -fno-signed-zeros -fno-trapping-math
// diff: tolerance 2
// Sums in a file built with reassociation allowed (as -ffast-math and -Ofast do, and as darknet's
// Makefile builds): the compiler may already reorder them, so lift takes them without
// --reassociate (neg_fast_math_pragma.c: the pragma that turns it back off).
float energy_and_dot(const float* x, const float* y, int n, float* dot_out) {
    float ss = 0.0f, dot = 0.0f;
    int i;
    // expect: lifted reduce add over x * x
    for (i = 0; i < n; i++) ss += x[i] * x[i];
    // expect: lifted reduce add over x * y
    for (i = 0; i < n; i++) dot += x[i] * y[i];
    *dot_out = dot;
    return ss;
}
