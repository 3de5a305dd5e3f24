// SPDX-License-Identifier: Apache-2.0
// Two ternaries on the old value: keep while `x <= best` -> argmax, first index.
#include <stddef.h>
#include <stdint.h>

size_t argmax_u32_first(const uint32_t* a, size_t n, uint32_t* out_value) {
    uint32_t best = 0;
    size_t idx = (size_t)-1;
    // expect: lifted arg_reduce argmax u32 first
    for (size_t i = 0; i < n; ++i) {
        idx = a[i] <= best ? idx : i;
        best = a[i] <= best ? best : a[i];
    }
    *out_value = best;
    return idx;
}
