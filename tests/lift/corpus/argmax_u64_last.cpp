// SPDX-License-Identifier: Apache-2.0
// `x >= best` from a caller's value -> argmax, last index.
#include <cstdint>

long argmax_u64_last(const uint64_t* a, long n, uint64_t threshold, uint64_t* out_value) {
    uint64_t best = threshold;
    long idx = -1;
    // expect: lifted arg_reduce argmax u64 last
    for (long i = 0; i < n; ++i) {
        const uint64_t x = a[i];
        if (x >= best) {
            best = x;
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
