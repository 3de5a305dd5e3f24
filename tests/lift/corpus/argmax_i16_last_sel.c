// SPDX-License-Identifier: Apache-2.0
// Select form: keep while `best > x` -> argmax, last index.
#include <stdbool.h>
#include <stdint.h>

void argmax_i16_last(const int16_t* a, long n, int16_t* out_value, long* out_index) {
    int16_t best = INT16_MIN;
    long best_idx = -1;
    // expect: lifted arg_reduce argmax i16 last
    for (long i = 0; i < n; ++i) {
        int16_t x = a[i];
        bool stay = best > x;
        best_idx = stay ? best_idx : i;
        best = stay ? best : x;
    }
    *out_value = best;
    *out_index = best_idx;
}
