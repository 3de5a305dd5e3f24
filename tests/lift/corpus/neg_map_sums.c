// SPDX-License-Identifier: Apache-2.0
// Loops that store and accumulate but must stay loops: a running (prefix) sum, a store of the
// accumulator after adding, an accumulator the stores may reach through its address, and a
// float sum without --reassociate.
#include <stdint.h>

static float y[100000];
static int32_t z[100000];

float running(const float* x, const int32_t* k, int n, int32_t* count) {
    if (n > 100000) n = 100000;
    float s = 0.0f;
    // expect: not lifted: the loop changes `s`, declared before it, beside its stores: `y` is stored a value that depends on the accumulators
    for (int i = 0; i < n; i++) {
        y[i] = s;
        s += x[i];
    }
    int32_t t = 0;
    // expect: not lifted: the loop changes `t`, declared before it, beside its stores: `z` is stored a value that depends on the accumulators
    for (int i = 0; i < n; i++) {
        t += k[i];
        z[i] = t;
    }
    int32_t c = 0;
    int32_t* where = n > 5 ? &c : &z[0];
    // expect: not lifted: the loop changes `c`, declared before it, which its stores may reach
    for (int i = 0; i < n; i++) {
        z[i] = k[i] * 2;
        c += k[i] > 0;
    }
    *where += 1;
    float f = 0.0f;
    // expect: not lifted: the loop changes `f`, declared before it, beside its stores: a float sum would be reassociated
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * 2.0f;
        f += y[i];
    }
    *count = c + t + z[n > 0 ? n - 1 : 0];
    return s + f + y[n > 0 ? n - 1 : 0];
}
