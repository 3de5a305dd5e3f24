// SPDX-License-Identifier: Apache-2.0
// Select form: keep while `x >= best` -> argmin, first index; initial value from the caller.
#include <stdbool.h>
#include <stdint.h>

int64_t argmin_u64_first(const uint64_t* a, int64_t n, uint64_t limit, uint64_t* out_value) {
    uint64_t best = limit;
    int64_t idx = -1;
    // expect: lifted arg_reduce argmin u64 first
    for (int64_t i = 0; i < n; ++i) {
        bool keep = a[i] >= best;
        best = keep ? best : a[i];
        idx = keep ? idx : i;
    }
    *out_value = best;
    return idx;
}
