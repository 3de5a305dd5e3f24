// SPDX-License-Identifier: Apache-2.0
// Select form: keep while `best >= x` -> argmax, first index; initial pair from the caller.
#include <cstdint>

int argmax_u16_first(const uint16_t* a, int n, uint16_t init_value, int init_index) {
    uint16_t best = init_value;
    int idx = init_index;
    // expect: lifted arg_reduce argmax u16 first
    for (int i = 0; i < n; ++i) {
        const bool keep = best >= a[i];
        best = keep ? best : a[i];
        idx = keep ? idx : i;
    }
    return idx;
}
