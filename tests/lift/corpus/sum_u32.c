// SPDX-License-Identifier: Apache-2.0
// Wrapping unsigned sum, unsigned length and index.
unsigned sum_u32(const unsigned* a, unsigned n) {
    unsigned s = 0u;
    // expect: lifted reduce add u32
    for (unsigned i = 0; i < n; ++i)
        s += a[i];
    return s;
}
