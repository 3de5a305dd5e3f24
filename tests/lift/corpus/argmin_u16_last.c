// SPDX-License-Identifier: Apache-2.0
// `best >= x`, update in the then-branch -> argmin, last index.
#include <stdint.h>

int argmin_u16_last(const uint16_t* a, int n, uint16_t* out_value) {
    uint16_t best = UINT16_MAX;
    int idx = -1;
    // expect: lifted arg_reduce argmin u16 last
    for (int i = 0; i < n; ++i) {
        const uint16_t x = a[i];
        if (best >= x) {
            best = x;
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
