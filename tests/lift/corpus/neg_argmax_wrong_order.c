// SPDX-License-Identifier: Apache-2.0
// The value is updated before the index, so the index compares against the NEW value and
// (almost) never changes: not an argmax.
#include <stdint.h>

int argmax_buggy(const int32_t* a, int n, int32_t* out_value) {
    int32_t best = INT32_MIN;
    int idx = -1;
    // expect: not lifted: already updated
    for (int i = 0; i < n; ++i) {
        const int32_t x = a[i];
        best = x > best ? x : best;
        idx = x > best ? i : idx;
    }
    *out_value = best;
    return idx;
}
