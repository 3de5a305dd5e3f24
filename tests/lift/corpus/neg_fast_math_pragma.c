// SPDX-License-Identifier: Apache-2.0
// cflags: -ffast-math
// A file built with -ffast-math whose loop turns reassociation back off with the clang pragma:
// that sum keeps its order, so it stays a loop (reduce_fast_math_flags.c: the sums it allows).
#include <math.h>

double strict_sum(const double* x, int n) {
    double s = 0.0;
    // expect: not lifted: would be reassociated
    for (int i = 0; i < n; i++) {
#pragma clang fp reassociate(off)
        s += x[i];
    }
    return s;
}
