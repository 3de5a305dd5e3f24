// SPDX-License-Identifier: Apache-2.0
// A call with side effects in the body.
#include <stdio.h>

int sum_verbose(const int* a, int n) {
    int s = 0;
    // expect: not lifted: printf
    for (int i = 0; i < n; ++i) {
        s += a[i];
        printf("%d %d\n", i, s);
    }
    return s;
}
