// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// `x < best` from the first element -> argmin, first index.
#include <stdint.h>

int64_t argmin_i64(const int64_t* a, int64_t n, int64_t* out_value) {
    int64_t best = a[0];
    int64_t idx = 0;
    // expect: lifted arg_reduce argmin i64 first
    for (int64_t i = 1; i < n; ++i) {
        int64_t x = a[i];
        if (x < best) {
            best = x;
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
