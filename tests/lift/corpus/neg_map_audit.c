// SPDX-License-Identifier: Apache-2.0
// Element-wise loops whose rewrite would lose a condition, a side effect or an order: each must
// stay a loop (a lift here is a false lift).
#include <math.h>
#include <stddef.h>
#include <stdint.h>

float ext(float);
static int counter;

void audit(float* out, volatile float* vout, const float* x, const int* idx, float* const* rows, int n, int stop) {
    int i;
    // expect: not lifted: leaves the loop early
    for (i = 0; i < n; i++) {
        if (x[i] < 0) {
            if (stop) break;
        }
        out[i] = x[i];
    }
    // expect: not lifted: volatile
    for (i = 0; i < n; i++) vout[i] = x[i] * 2.0f;
    // expect: not lifted: calls `ext`
    for (i = 0; i < n; i++) out[i] = ext(x[i]);
    // expect: not lifted: sets errno
    for (i = 0; i < n; i++) out[i] = x[i] > 1.0f ? sqrtf(x[i] - 2.0f) : 0.0f;
    // expect: not lifted: read and written at different positions
    for (i = 1; i < n; i++) out[i] = out[i - 1] + x[i];
    // expect: not lifted: indirect
    for (i = 0; i < n; i++) out[idx[i]] = x[i];
    // expect: not lifted:
    for (i = 0; i + 1 < n; i++) {
        out[i] = x[i];
        out[i + 1] = x[i];
    }
    // expect: not lifted: not a local variable
    for (counter = 0; counter < n; counter++) out[counter] = x[counter];
    // expect: not lifted: is not a number
    for (i = 0; i < n; i++)
        if (rows[i]) out[i] = x[i];
    // expect: not lifted: leaves the loop early
    for (i = 0; i < n; i++) {
        if (x[i] != x[i]) return;
        out[i] = -x[i];
    }
}

int* counter_escapes(float* out, const float* x, int n) {
    static int* seen;
    int i;
    seen = &i;
    // expect: not lifted: address of the loop counter
    for (i = 0; i < n; i++) out[i] = x[i] + 1.0f;
    return seen;
}

/* An unsigned j + 1 wraps for j = SIZE_MAX: from a start that is not a small constant the loop's
   range is not j < n - 1. */
void unsigned_from(float* out, const float* x, size_t start, size_t n) {
    size_t j;
    // expect: not lifted: is not `j < end`
    for (j = start; j + 1 < n; j++) out[j] = x[j + 1] * 2.0f;
}

/* The map family's numbers are finite: a loop that stores INFINITY stays a loop. */
void infinite(float* out, const float* x, int n) {
    int i;
    // expect: not lifted: is not a finite number
    for (i = 0; i < n; i++) out[i] = x[i] > 100.0f ? INFINITY : x[i];
}
