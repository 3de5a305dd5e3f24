// SPDX-License-Identifier: Apache-2.0
// A call to a function defined elsewhere: it may have side effects or read the accumulator.
#include <cstdint>

extern void trace_value(int64_t v);

int64_t max_traced(const int64_t* a, int n) {
    int64_t m = INT64_MIN;
    // expect: not lifted: trace_value
    for (int i = 0; i < n; ++i) {
        trace_value(a[i]);
        if (a[i] > m) m = a[i];
    }
    return m;
}
