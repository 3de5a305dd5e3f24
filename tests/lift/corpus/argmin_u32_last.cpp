// SPDX-License-Identifier: Apache-2.0
// `x <= best`, update in the then-branch -> argmin, last index.
#include <cstddef>
#include <cstdint>

void argmin_u32_last(const uint32_t* a, size_t n, uint32_t* out_value, size_t* out_index) {
    uint32_t best = UINT32_MAX;
    size_t idx = 0;
    // expect: lifted arg_reduce argmin u32 last
    for (size_t i = 0; i < n; ++i) {
        if (a[i] <= best) {
            best = a[i];
            idx = i;
        }
    }
    *out_value = best;
    *out_index = idx;
}
