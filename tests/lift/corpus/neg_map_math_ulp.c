// SPDX-License-Identifier: Apache-2.0
// cflags: -fno-math-errno
// Without --math-ulp a loop calling expf stays: the kernels compute exp within 1 ULP of the exact
// result, not bit for bit as libm, and the user has not accepted that.
#include <math.h>

void softplus(const float* x, float* y, int n) {
    // expect: not lifted: `log` is computed by the kernel within 1 ULP of the exact result, not bit for bit as the C library does: pass --math-ulp 1
    for (int i = 0; i < n; ++i) y[i] = logf(1.0f + expf(x[i]));
}
