// SPDX-License-Identifier: Apache-2.0
// Select form with the element on the left: keep while `x < best` -> argmax, last index.
#include <stdbool.h>
#include <stdint.h>

int64_t argmax_i64_last(const int64_t* a, int64_t n, int64_t* out_value) {
    int64_t best = INT64_MIN;
    int64_t idx = -1;
    // expect: lifted arg_reduce argmax i64 last
    for (int64_t i = 0; i < n; ++i) {
        const int64_t x = a[i];
        const bool keep = x < best;
        idx = keep ? idx : i;
        best = keep ? best : x;
    }
    *out_value = best;
    return idx;
}
