// SPDX-License-Identifier: Apache-2.0
// Then-side select through a bool local: `better = x > best` -> argmax, first index.
#include <cstdint>

int argmax_i32_sel(const int32_t* a, int n, int32_t* out_value) {
    int32_t best = INT32_MIN;
    int pos = -1;
    // expect: lifted arg_reduce argmax i32 first
    for (int i = 0; i < n; ++i) {
        const bool better = a[i] > best;
        best = better ? a[i] : best;
        pos = better ? i : pos;
    }
    *out_value = best;
    return pos;
}
