// SPDX-License-Identifier: Apache-2.0
// Range of signed bytes with std::min / std::max.
#include <algorithm>
#include <cstdint>

void minmax_i8(const int8_t* a, int n, int8_t* out_min, int8_t* out_max) {
    int8_t lo = INT8_MAX;
    // expect: lifted reduce min i8
    for (int i = 0; i < n; ++i) {
        lo = std::min(lo, a[i]);
    }
    int8_t hi = INT8_MIN;
    // expect: lifted reduce max i8
    for (int i = 0; i < n; ++i) {
        hi = std::max(hi, a[i]);
    }
    *out_min = lo;
    *out_max = hi;
}
