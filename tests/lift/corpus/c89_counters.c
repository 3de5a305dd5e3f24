// SPDX-License-Identifier: Apache-2.0
// Numeric C in the C89 style: every counter declared at the top of the function, loops that go on
// from where an earlier one stopped (`for (; i < n; i++)`), counters returned or reused afterwards.
#include <stddef.h>
#include <stdint.h>

static float scaled[100000];

float c89_stats(const float* x, const uint8_t* p, long n, unsigned* out_last) {
    long i;
    unsigned j;
    float m = -1e30f;
    uint32_t total = 0;
    if (n > 100000) n = 100000;
    unsigned count = n > 0 ? (unsigned)n : 0u;
    /* the first quarter copied, the rest scaled from where it stopped */
    // expect: lifted c89_stats_lifted (map f32 -> f32 (1 input, 1 output))
    for (i = 0; i < n / 4; i++) scaled[i] = x[i];
    // expect: lifted c89_stats_lifted_2 (map f32 -> f32 (1 input, 1 output))
    for (; i < n; i++) scaled[i] = x[i] * 0.5f;
    // expect: lifted reduce max f32
    for (i = 0; i < n; i++)
        if (scaled[i] > m) m = scaled[i];
    // expect: lifted reduce add u8 -> u32
    for (j = 0; j < count; j++) total += p[j];
    *out_last = j + (unsigned)i;
    return m + (float)total;
}
