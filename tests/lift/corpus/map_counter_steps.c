// SPDX-License-Identifier: Apache-2.0
// Counters that step by more than one over pixels a pointer walks, as libpng's transforms write
// them (`for (i = 0; i < istop; i += 2) { *rp = ~*rp; rp += 2; }`): only the number of iterations,
// ceil((end - start) / k), matters, and after the call the counter and the pointer hold what the
// loop leaves (read back here). Positions may read the counter (`a[i]`: a stride of k), also
// beside a second counter that steps by one (speexdsp's `for (i=1,j=1; i<N-1; i+=2, j++)`). A body
// that reads the counter as a value, and an unsigned 32-bit counter that could wrap past its
// bound, stay loops.
#include <stdint.h>
#include <stddef.h>
#include <string.h>

static uint8_t buf[4 * 100000 + 16];

static size_t invert_gray(uint8_t* row, size_t rowbytes) {
    uint8_t* rp = row;
    size_t i;
    size_t istop = rowbytes;
    // expect: lifted invert_gray_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = 0; i < istop; i += 2) {
        *rp = (uint8_t)(~(*rp));
        rp += 2;
    }
    return i + (size_t)(rp - row) * 7;
}

static size_t invert_gray16(uint8_t* row, size_t rowbytes) {
    uint8_t* rp = row;
    size_t i;
    // expect: lifted invert_gray16_lifted (map u8 -> u8 (2 inputs, 2 outputs))
    for (i = 0; i < rowbytes; i += 4) {
        *rp = (uint8_t)(~(*rp));
        *(rp + 1) = (uint8_t)(~(*(rp + 1)));
        rp += 4;
    }
    return i;
}

static int thirds(uint8_t* dst, const uint8_t* src, int first, int last) {
    const uint8_t* sp = src;
    uint8_t* dp = dst;
    int i;
    // expect: lifted thirds_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = first; i <= last; i += 3) {
        *dp = (uint8_t)(*sp * 2 + 1);
        dp++;
        sp += 3;
    }
    return i * 1000 + (int)(dp - dst);
}

static void reads_counter(uint8_t* a, const uint8_t* b, int n) {
    // expect: lifted reads_counter_lifted (map u8 -> u8 (1 input, 1 output))
    for (int i = 0; i < n; i += 2) a[i] = (uint8_t)(b[i] + 1);
}

static void counter_value(uint8_t* a, const uint8_t* b, int n) {
    // expect: not lifted: reads it as a value
    for (int i = 0; i < n; i += 2) a[i] = (uint8_t)(b[i] + i);
}

static int power_spectrum(int16_t* ps, const int16_t* X, int N) {
    int i, j;
    ps[0] = (int16_t)(X[0] * X[0]);
    // expect: lifted power_spectrum_lifted (map i16 -> i16 (2 inputs, 1 output))
    for (i=1,j=1;i<N-1;i+=2,j++)
        ps[j] = (int16_t)(X[i]*X[i] + X[i+1]*X[i+1]);
    ps[j] = (int16_t)(X[i]*X[i]);
    return i * 100000 + j;
}

static unsigned narrow(uint8_t* p, unsigned n) {
    unsigned i;
    // expect: not lifted: may wrap
    for (i = 0; i < n; i += 2) {
        *p = (uint8_t)(*p + 1);
        p++;
    }
    return i;
}

static uint64_t hash(const void* v, size_t bytes, uint64_t h) {
    const uint8_t* b = (const uint8_t*)v;
    // expect: not lifted:
    for (size_t k = 0; k < bytes; k++) h = h * 1000003u + b[k];
    return h;
}

uint64_t counter_steps(const uint8_t* p, int n) {
    uint64_t h = 0;
    if (n > 100000) n = 100000;
    if (n < 0) n = 0;
    memset(buf, 0, sizeof buf);
    memcpy(buf, p, (size_t)n);
    memcpy(buf + n, p, (size_t)n);
    h = h * 31 + invert_gray(buf, 2 * (size_t)n - (n & 1));  /* an odd count of bytes too */
    h = hash(buf, 2 * (size_t)n + 1, h);
    h = h * 31 + invert_gray16(buf, 2 * (size_t)n);
    h = hash(buf, 2 * (size_t)n + 4, h);
    h = h * 31 + (uint64_t)(int64_t)thirds(buf + 2 * n + 8, p, n % 5, n - 1 - n / 3 - n % 5 + (n / 3) * 1);
    h = hash(buf, 4 * (size_t)n + 16, h);
    reads_counter(buf, p, n);
    reads_counter(buf + 1, buf + 1, n - 1);                      /* in place */
    counter_value(buf + 3, p, n);
    h = h * 31 + (uint64_t)power_spectrum((int16_t*)(buf + 2 * n + 2), (const int16_t*)buf, n);
    h = h * 31 + narrow(buf, (unsigned)n);
    return hash(buf, 2 * (size_t)n, h);
}
