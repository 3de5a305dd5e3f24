// SPDX-License-Identifier: Apache-2.0
// lift-args: --math-ulp 4
// C's expf and logf set errno on overflow, underflow and domain errors unless the code is compiled
// with -fno-math-errno; the kernels never do, so without that flag such a loop stays.
#include <math.h>

void log_likelihood(const double* p, double* y, int n) {
    // expect: not lifted: `log` sets errno on range and domain errors, which the kernel does not: compile with -fno-math-errno
    for (int i = 0; i < n; ++i) y[i] = -log(p[i]);
}
