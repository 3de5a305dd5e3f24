// SPDX-License-Identifier: Apache-2.0
// Select form, old value on the true side: keep while `best < x` -> argmin, last index.
#include <stdbool.h>
#include <stdint.h>

int argmin_i32_last(const int32_t* a, int n, int32_t* out_value) {
    int32_t best = INT32_MAX;
    int idx = -1;
    // expect: lifted arg_reduce argmin i32 last
    for (int i = 0; i < n; ++i) {
        const int32_t x = a[i];
        const bool keep = best < x;
        idx = keep ? idx : i;
        best = keep ? best : x;
    }
    *out_value = best;
    return idx;
}
