// SPDX-License-Identifier: Apache-2.0
// y = alpha * x + y in place (the spec's in_place), after a copy of x into y (a copy is a map too).
#include <cstdint>
#include <cstring>

static float y[100000];

uint64_t axpy_hash(const float* x, long n, float alpha) {
    if (n > 100000) n = 100000;
    // expect: lifted map f32 -> f32 (1 input, 1 output)
    for (long i = 0; i < n; ++i) y[i] = x[i] * 0.5f - 1.0f;
    // expect: lifted axpy_hash_lifted_2 (map f32 -> f32 (2 inputs, 1 output))
    for (long i = 0; i < n; ++i) y[i] = alpha * x[i] + y[i];
    uint64_t h = 0;
    // expect: not lifted:
    for (long i = 0; i < n; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &y[i], 4);
        if (y[i] != y[i]) bits = 0x7fc00000u;
        h = h * 1000003u + bits;
    }
    return h;
}
