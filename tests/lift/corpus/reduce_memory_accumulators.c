// SPDX-License-Identifier: Apache-2.0
// Reductions that accumulate into memory at a fixed address, as darknet (`mean[i] += x[index]`)
// and stats code (`s->sum += p[k]`) write them: the kernel keeps the sum in a register, so the
// rewrite calls it only when the accumulator shares no byte with what the loop reads (tested on
// the addresses), else it runs the loop. The helpers are called with accumulators inside their
// own inputs too: each element read after the accumulator changed sees the new value.
#include <stdint.h>
#include <string.h>

struct stats {
    int64_t sum;
    int32_t count;
    uint8_t peak;
};

static int32_t arena[100064];

static void add_into(const int32_t* x, int n, int32_t* acc) {
    // expect: lifted add_into_lifted (reduce add i32
    for (int k = 0; k < n; k++) *acc += x[k];
}

static void stats_of(const uint8_t* p, int n, struct stats* s) {
    // expect: lifted stats_of_lifted (reduce
    for (int k = 0; k < n; k++) {
        s->sum += p[k];
        s->count += p[k] > 128;
        if (p[k] > s->peak) s->peak = p[k];
    }
}

static void peak_into(const float* x, int n, float* peak, int row) {
    // expect: lifted peak_into_lifted (reduce max f32
    for (int k = 0; k < n; k++)
        if (x[k] > peak[row]) peak[row] = x[k];
}

uint64_t memory_accumulators(const int32_t* a, const uint8_t* p, const float* f, int n) {
    int m = n > 100000 ? 100000 : n;
    uint64_t h = 0;
    int32_t total = 7;
    struct stats s = {1, 2, 3};
    float peaks[4] = {-1.0f, 0.0f, 1.0f, 2.0f};
    if (m < 0) m = 0;
    add_into(a, m, &total);                          /* apart */
    memset(arena, 0, sizeof arena);
    memcpy(arena, a, (size_t)m * sizeof(int32_t));
    add_into(arena, m, &arena[m / 2]);               /* the accumulator is an element it reads */
    add_into(arena, m, &arena[m]);                   /* just past the elements it reads */
    stats_of(p, m, &s);
    peak_into(f, m, peaks, 1);
    peak_into(f, m / 2, peaks, 3);
    h = h * 1000003u + (uint32_t)total;
    h = h * 1000003u + (uint32_t)arena[m / 2] + (uint32_t)arena[m];
    h = h * 1000003u + (uint64_t)s.sum + (uint32_t)s.count * 7u + s.peak;
    // expect: not lifted:
    for (int r = 0; r < 4; r++) {
        uint32_t b;
        memcpy(&b, &peaks[r], 4);
        if (peaks[r] != peaks[r]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h;
}
