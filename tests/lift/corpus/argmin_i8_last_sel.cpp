// SPDX-License-Identifier: Apache-2.0
// Select form: keep while `x > best` -> argmin, last index.
#include <cstdint>

int argmin_i8_last(const int8_t* a, int n, int8_t* out_value) {
    int8_t best = INT8_MAX;
    int idx = -1;
    // expect: lifted arg_reduce argmin i8 last
    for (int i = 0; i < n; ++i) {
        const int8_t x = a[i];
        const bool keep = x > best;
        idx = keep ? idx : i;
        best = keep ? best : x;
    }
    *out_value = best;
    return idx;
}
