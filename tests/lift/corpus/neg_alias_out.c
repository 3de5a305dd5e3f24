// SPDX-License-Identifier: Apache-2.0
// The sum is kept in *out inside the loop: out may alias a, so this is no register reduction.
#include <stdint.h>

void sum_into(const int32_t* a, int n, int32_t* out) {
    out[0] = 0;
    // expect: not lifted: writes to memory
    for (int i = 0; i < n; ++i) {
        out[0] += a[i];
    }
}
