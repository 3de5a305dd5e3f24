// SPDX-License-Identifier: Apache-2.0
// `best > x`, update in the then-branch -> argmin, first index.
#include <cstdint>

int64_t argmin_i16(const int16_t* a, int64_t n, int16_t* out_value) {
    int16_t best = INT16_MAX;
    int64_t idx = -1;
    // expect: lifted arg_reduce argmin i16 first
    for (int64_t i = 0; i < n; ++i) {
        if (best > a[i]) {
            best = a[i];
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
