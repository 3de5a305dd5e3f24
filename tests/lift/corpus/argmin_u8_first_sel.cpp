// SPDX-License-Identifier: Apache-2.0
// Two ternaries on the old value (index first): keep while `best <= x` -> argmin, first index.
#include <cstddef>
#include <cstdint>

size_t argmin_u8_first(const uint8_t* a, size_t n) {
    uint8_t best = UINT8_MAX;
    size_t idx = 0;
    // expect: lifted arg_reduce argmin u8 first
    for (size_t i = 0; i < n; ++i) {
        idx = best <= a[i] ? idx : i;
        best = best <= a[i] ? best : a[i];
    }
    return idx;
}
