// SPDX-License-Identifier: Apache-2.0
// Two outputs from one input: ReLU through a ternary and a negation (-0.0 and NaN as C gives them).
#include <cstdint>
#include <cstring>

static double pos[100000], neg[100000];

uint64_t relu_neg_hash(const double* a, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map f64 -> f64 (1 input, 2 outputs)
    for (int i = 0; i < n; ++i) {
        pos[i] = a[i] > 0.0 ? a[i] : 0.0;
        neg[i] = -a[i];
    }
    uint64_t h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) {
        uint64_t p, q;
        std::memcpy(&p, &pos[i], 8);
        std::memcpy(&q, &neg[i], 8);
        if (pos[i] != pos[i]) p = 1;
        if (neg[i] != neg[i]) q = 1;
        h = (h * 1000003u + p) * 31u + q;
    }
    return h;
}
