// SPDX-License-Identifier: Apache-2.0
// Largest and smallest uint64_t with if statements.
#include <stddef.h>
#include <stdint.h>

void minmax_u64(const uint64_t* a, size_t n, uint64_t* out_min, uint64_t* out_max) {
    uint64_t m = 0;
    // expect: lifted reduce max u64
    for (size_t i = 0; i < n; ++i) {
        if (a[i] > m) m = a[i];
    }
    uint64_t k = UINT64_MAX;
    // expect: lifted reduce min u64
    for (size_t i = 0; i < n; ++i) {
        if (a[i] < k) k = a[i];
    }
    *out_max = m;
    *out_min = k;
}
