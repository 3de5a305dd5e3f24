// SPDX-License-Identifier: Apache-2.0
// Prints the statistics of pseudo-random data of several lengths: the output must not change
// when stats.c is rewritten to call simdgen kernels.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static uint64_t state = 88172645463325252ull;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int main(void) {
  const int lengths[] = {1, 2, 7, 16, 31, 64, 100, 257, 1000, 4099};
  for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
    const int n = lengths[k];
    uint8_t* px = malloc(n);
    float* t = malloc(n * sizeof(float));
    int16_t* s = malloc(n * sizeof(int16_t));
    int64_t* w = malloc(n * sizeof(int64_t));
    int* a = malloc(n * sizeof(int));
    int* peaks = malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) {
      px[i] = (uint8_t)next();
      t[i] = (float)(next() % 2001) / 10.0f - 50.0f;  // ties are likely
      if (next() % 17 == 0) t[i] = NAN;
      s[i] = (int16_t)next();
      w[i] = (int64_t)next();
      a[i] = (int)(next() % 50);
    }
    float hot = 0;
    const long at = hottest(t, n, &hot);
    printf("n=%d sum=%u hottest=%ld (%g) lowest=%d/%d checksum=%lld peaks=%d\n", n, pixel_sum(px, (size_t)n), at, hot,
           lowest(s, n, 0), lowest(s, n, -32768), (long long)checksum(w, n), running_peaks(a, n, peaks));
    free(px), free(t), free(s), free(w), free(a), free(peaks);
  }
  // Row-wise: an image with padding, and a matrix whose results overwrite rows still to be read.
  uint8_t img[23 * 40];
  for (int i = 0; i < 23 * 40; ++i) img[i] = (uint8_t)next();
  uint32_t totals[23];
  row_totals(img, 23, 37, 40, totals);
  uint64_t h = 0;
  for (int r = 0; r < 23; ++r) h = h * 1000003u + totals[r];
  // Row 0's maximum (written over row 1's first element) is larger than all of row 1: the loop
  // then finds it again as row 1's maximum, a kernel reading rows in groups would not.
  int32_t m[41 * 64];
  for (int i = 0; i < 41 * 64; ++i) m[i] = (int32_t)(next() % 1000) - 500;
  m[5] = 100000;
  row_max_shifted(m, 40, 64);
  for (int i = 0; i < 41 * 64; ++i) h = h * 1000003u + (uint32_t)m[i];
  printf("rows=%llu\n", (unsigned long long)h);

  // A map, then the same map shifted onto its own input (each result feeds the next element).
  uint8_t light[300], shifted[301];
  for (int i = 0; i < 301; ++i) shifted[i] = (uint8_t)(next() % 64);
  brighten(img, light, 300);
  brighten(shifted, shifted + 1, 300);
  for (int i = 0; i < 300; ++i) h = h * 1000003u + light[i] + 7u * shifted[i + 1];
  printf("map=%llu\n", (unsigned long long)h);

  // Past the first 2^24-element chunk, all 255: a 32-bit sum would have wrapped.
  const size_t big = (1u << 24) + (1u << 20);
  uint8_t* bytes = malloc(big);
  for (size_t i = 0; i < big; ++i) bytes[i] = (uint8_t)(i < 5000 ? next() : 255);
  printf("bytes=%llu\n", (unsigned long long)byte_total(bytes, big));
  free(bytes);
  return 0;
}
