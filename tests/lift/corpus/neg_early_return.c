// SPDX-License-Identifier: Apache-2.0
// A search that returns from inside the loop.
#include <stdint.h>

int find_i32(const int32_t* a, int n, int32_t key) {
    // expect: not lifted: return
    for (int i = 0; i < n; ++i) {
        if (a[i] == key)
            return i;
    }
    return -1;
}
