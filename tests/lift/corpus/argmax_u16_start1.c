// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// From the first element, loop from 1, `x >= best` -> argmax, last index.
#include <stdint.h>

int argmax_u16_last(const uint16_t* a, int n) {
    uint16_t best = a[0];
    int idx = 0;
    // expect: lifted arg_reduce argmax u16 last
    for (int i = 1; i < n; ++i) {
        if (a[i] >= best) {
            best = a[i];
            idx = i;
        }
    }
    return idx;
}
