// SPDX-License-Identifier: Apache-2.0
// Sums kept in memory at an address the loop computes from memory (`out[*slot]`: a store to out
// may change *slot when they alias) or in a volatile element are no register reductions: they
// stay loops. (An accumulator at a fixed address, `*out += a[i]`, is lifted with a test of the
// addresses: reduce_memory_accumulators.c.)
#include <stdint.h>

void sum_into(const int32_t* a, int n, int32_t* out, const int32_t* slot, volatile int32_t* v) {
    out[0] = 0;
    // expect: not lifted: writes to memory
    for (int i = 0; i < n; ++i) {
        out[*slot & 0] += a[i];
    }
    // expect: not lifted: volatile
    for (int i = 0; i < n; ++i) v[0] += a[i];
}
