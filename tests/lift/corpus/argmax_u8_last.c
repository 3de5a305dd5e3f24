// SPDX-License-Identifier: Apache-2.0
// `best <= x`, update in the then-branch -> argmax, last index.
#include <stddef.h>
#include <stdint.h>

size_t argmax_u8_last(const uint8_t* a, size_t n, uint8_t* out_best) {
    uint8_t best = 0;
    size_t idx = 0;
    // expect: lifted arg_reduce argmax u8 last
    for (size_t i = 0; i < n; ++i) {
        if (best <= a[i]) {
            best = a[i];
            idx = i;
        }
    }
    *out_best = best;
    return idx;
}
