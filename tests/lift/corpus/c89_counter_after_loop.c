// SPDX-License-Identifier: Apache-2.0
// C89: the counter is declared before the loop and read after it. The rewrite leaves in it what
// the loop would have (n after a non-empty range; the loop itself runs the empty and short ones).
#include <stdint.h>

int64_t sum_and_count(const int32_t* a, int n, int* out_count) {
    int64_t s = 0;
    int i;
    // expect: lifted reduce add i32 -> i64
    for (i = 0; i < n; ++i) {
        s += a[i];
    }
    *out_count = i;
    return s;
}
