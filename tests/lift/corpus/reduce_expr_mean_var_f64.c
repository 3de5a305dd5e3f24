// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance 2
// Mean and variance in one loop, C89 style: two accumulators of one pass become two reduction
// outputs of one kernel; the counter declared before the loop gets the value the loop leaves.
double moments(const double* x, int n, double* var) {
    double s = 0.0, ss = 0.0, mean;
    int i;
    // expect: lifted reduce add over x, x * x (f64, 1 input)
    for (i = 0; i < n; i++) {
        s += x[i];
        ss += x[i] * x[i];
    }
    if (n == 0) {
        *var = 0.0;
        return (double)i;
    }
    mean = s / n;
    *var = ss / n - mean * mean;
    return mean + (double)i;
}
