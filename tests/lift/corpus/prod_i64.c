// SPDX-License-Identifier: Apache-2.0
// long (64-bit) product starting from 3.
long prod_i64(const long* a, long n) {
    long p = 3;
    // expect: lifted reduce mul i64
    for (long i = 0; i < n; ++i) {
        p *= a[i];
    }
    return p;
}
