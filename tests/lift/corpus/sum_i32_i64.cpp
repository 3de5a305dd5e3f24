// SPDX-License-Identifier: Apache-2.0
// int64_t accumulator over int32_t with a nonzero starting value.
#include <cstddef>
#include <cstdint>

int64_t sum_i32(const int32_t* values, size_t n) {
    int64_t total = 1000;
    // expect: lifted reduce add i32 -> i64
    for (size_t i = 0; i < n; ++i) {
        const int32_t v = values[i];
        total += v;
    }
    return total;
}
