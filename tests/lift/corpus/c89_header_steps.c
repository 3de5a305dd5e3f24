// SPDX-License-Identifier: Apache-2.0
// C89 `for` headers that set and step more than the counter, as libpng and speexdsp write them:
// `for (i = 0, rp = row; i < n; i++, rp++)`. The init's other assignments run before the kernel
// call (the loop, if it runs, makes them again), the increment's steps are positions as steps at
// the end of the body would be, and the rewrite leaves every variable where the loop would. An
// init that reads what it assigns, a step of a global, a variable stepped by both the header and
// the body, and such headers on a nest stay loops.
#include <stdint.h>
#include <string.h>

static uint8_t out8[100002];
static int32_t out32[100002];
static int g_step;

static uint64_t hash(const void* p, size_t bytes, uint64_t h) {
    const unsigned char* b = (const unsigned char*)p;
    size_t k;
    // expect: not lifted:
    for (k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

uint64_t header_steps(const uint8_t* row, const int32_t* x, int n, int bias) {
    int i, j, k;
    const uint8_t* rp;
    uint8_t* dp;
    const int32_t* xp;
    uint32_t sum;
    if (n > 100000) n = 100000;
    memset(out8, 0, sizeof out8);
    memset(out32, 0, sizeof out32);
    // expect: lifted header_steps_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = 0, rp = row, dp = out8 + 1; i < n; i++, rp++, dp++)
        *dp = (uint8_t)(255 - *rp);
    // expect: lifted header_steps_lifted_2 (reduce add
    for (i = 0, sum = 7, xp = x; i < n; ++i, xp++) {
        sum += (uint32_t)*xp;
    }
    // expect: lifted header_steps_lifted_3 (map i32 -> i32 (1 input, 1 output))
    for (i = 0, j = 1; i < n; i++, j++)
        out32[j] = x[i] * 3 + bias;
    k = 0;
    // expect: not lifted: reads it
    for (i = 0, xp = x + k, k = 1; i < n; i++, xp++)
        out32[i] = *xp;
    // expect: not lifted: not a local integer or pointer
    for (i = 0; i < n; i++, g_step++)
        out32[i] = x[i];
    // expect: not lifted: which its body changes too
    for (i = 0, k = 0; i < n / 2; i++, k++) {
        out32[k] = x[i];
        k++;
    }
    // expect: not lifted: only a loop without a nest
    for (i = 0, rp = row; i < n / 64; i++, rp += 64) {
        int c;
        // expect: lifted header_steps_lifted_4 (map u8 -> u8 (1 input, 1 output))
        for (c = 0; c < 64; c++) out8[i * 64 + c] = rp[c];
    }
    return hash(out8, sizeof out8, hash(out32, sizeof out32, 0)) + (uint64_t)(rp - row) * 3 + (uint64_t)(dp - out8) * 5 +
           (uint64_t)(xp - x) * 7 + (uint64_t)i * 11 + (uint64_t)j * 13 + (uint64_t)k * 17 + sum;
}
