// SPDX-License-Identifier: Apache-2.0
// Running total continued from a caller's value: initial value from a parameter, `i += 1`.
#include <cstdint>

int32_t sum_i16_init(const int16_t* a, int64_t n, int32_t init) {
    int32_t acc = init;
    // expect: lifted reduce add i16 -> i32
    for (int64_t i = 0; i < n; i += 1) {
        acc += a[i];
    }
    return acc;
}
