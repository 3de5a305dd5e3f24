// SPDX-License-Identifier: Apache-2.0
// Plain char: signed on x86-64, unsigned on AArch64; the element type is unknown.
#include <stddef.h>

int sum_chars(const char* s, size_t n) {
    int total = 0;
    // expect: not lifted: char
    for (size_t i = 0; i < n; ++i) {
        total += s[i];
    }
    return total;
}
