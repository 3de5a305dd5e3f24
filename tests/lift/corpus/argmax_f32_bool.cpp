// SPDX-License-Identifier: Apache-2.0
// Two selects on one comparison (NaN never compares greater) -> argmax, first index.
#include <cmath>
#include <cstdint>

int64_t argmax_f32_sel(const float* a, int64_t n, float* out_value) {
    float best = -INFINITY;
    int64_t idx = -1;
    // expect: lifted arg_reduce argmax f32 first
    for (int64_t i = 0; i < n; ++i) {
        const float x = a[i];
        const bool better = x > best;
        best = better ? x : best;
        idx = better ? i : idx;
    }
    *out_value = best;
    return idx;
}
