// SPDX-License-Identifier: Apache-2.0
// Bounds written as `i + k < n` (a neighbour is read at i + k): the range is i < n - k, taken in
// exact arithmetic (for n < k the loop is empty, also for an unsigned n from 0).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static float d1[100000], d2[100000];
static int32_t s3[100000];

static uint64_t hash(const void* p, size_t bytes, uint64_t h) {
    const unsigned char* b = (const unsigned char*)p;
    size_t k;
    // expect: not lifted:
    for (k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

uint64_t neighbours(const float* x, const int32_t* v, long n) {
    long i;
    size_t j, m = n > 0 ? (size_t)n : 0;
    if (n > 100000) n = 100000, m = 100000;
    memset(d1, 0, sizeof d1);
    memset(d2, 0, sizeof d2);
    memset(s3, 0, sizeof s3);
    // expect: lifted neighbours_lifted (map f32 -> f32 (2 inputs, 1 output))
    for (i = 0; i + 1 < n; i++) d1[i] = x[i + 1] - x[i];
    // expect: lifted neighbours_lifted_2 (map f32 -> f32 (3 inputs, 1 output))
    for (j = 0; j + 3 <= m; ++j) d2[j] = x[j] - 2.0f * x[j + 1] + x[j + 2];
    // expect: lifted neighbours_lifted_3 (map i32 -> i32 (3 inputs, 1 output))
    for (int k = 1; k + 1 < (int)n; k++) s3[k] = v[k - 1] + v[k] + v[k + 1];
    return hash(d1, sizeof d1, hash(d2, sizeof d2, hash(s3, sizeof s3, 0))) + (uint64_t)i + (uint64_t)j;
}
