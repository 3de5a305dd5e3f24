// SPDX-License-Identifier: Apache-2.0
// Fixed-point DSP code as it is written: arithmetic through function-like macros, C89 counters,
// brace-less bodies that end in a macro. A macro that expands to an expression is lifted as its
// expansion; a loop that a macro itself spells stays a loop.
#include <stdint.h>
#include <string.h>

#define MULT16_16(a, b) ((int32_t)(int16_t)(a) * (int32_t)(int16_t)(b))
#define SHR32(a, shift) ((a) >> (shift))
#define ADD32(a, b) ((int32_t)(a) + (int32_t)(b))
#define SQR(x) ((x) * (x))
#define ABS16(x) ((x) < 0 ? (-(x)) : (x))
#define MAX32(a, b) ((a) > (b) ? (a) : (b))
#define QCONST16(x, bits) ((int16_t)(.5 + (x) * (((int32_t)1) << (bits))))
#define FOR_EACH_SAMPLE(i, n) for ((i) = 0; (i) < (n); (i)++)

static int32_t acc[100000], peak[100000];
static float sq[100000];

static uint64_t hash(const void* p, size_t bytes, uint64_t h) {
    const unsigned char* b = (const unsigned char*)p;
    size_t k;
    // expect: not lifted:
    for (k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

uint64_t dsp_macros(const int16_t* x, const int16_t* y, const float* f, int n) {
    int i;
    if (n > 100000) n = 100000;
    memset(peak, 0, sizeof peak);
    // expect: lifted dsp_macros_lifted (map i16 -> i32 (2 inputs, 1 output))
    for (i = 0; i < n; i++) acc[i] = SHR32(MULT16_16(x[i], y[i]), 15);
    // expect: lifted dsp_macros_lifted_2 (map i32,i16 -> i32 (2 inputs, 1 output))
    for (i = 0; i < n; i++)
        acc[i] = ADD32(acc[i], MULT16_16(QCONST16(.6f, 15), y[i]));
    // expect: lifted dsp_macros_lifted_3 (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n; i++) sq[i] = SQR(f[i]);
    // expect: lifted dsp_macros_lifted_4 (map i32,i16 -> i32 (2 inputs, 1 output))
    for (i = 0; i < n; i++)
        peak[i] = MAX32(peak[i], ABS16(x[i]));
    // expect: not lifted: macro expansion
    FOR_EACH_SAMPLE(i, n) sq[i] = f[i] * 2.0f;
    return hash(acc, sizeof acc, hash(peak, sizeof peak, hash(sq, sizeof sq, 0))) + (uint64_t)i;
}
