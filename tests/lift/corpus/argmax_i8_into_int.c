// SPDX-License-Identifier: Apache-2.0
// The value kept in an int starting at INT_MIN over int8_t elements; an empty array returns -1.
#include <limits.h>
#include <stdint.h>

int argmax_i8_int(const int8_t* a, int n, int* out_value) {
    int best = INT_MIN;
    int idx = -1;
    // expect: lifted arg_reduce argmax i8 first
    for (int i = 0; i < n; ++i) {
        if (a[i] > best) {
            best = a[i];
            idx = i;
        }
    }
    *out_value = best;
    return idx;
}
