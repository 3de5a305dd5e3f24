// SPDX-License-Identifier: Apache-2.0
#include "stats.h"

uint32_t pixel_sum(const uint8_t* pixels, size_t count) {
  uint32_t total = 0;
  for (size_t i = 0; i < count; i++)
    total += pixels[i];
  return total;
}

long hottest(const float* temps, long n, float* value) {
  float best = temps[0];
  long at = 0;
  for (long i = 1; i < n; ++i) {
    if (temps[i] > best) {
      best = temps[i];
      at = i;
    }
  }
  *value = best;
  return at;
}

int16_t lowest(const int16_t* samples, int n, int16_t ceiling) {
  int16_t low = ceiling;
  for (int i = 0; i < n; ++i)
    low = samples[i] < low ? samples[i] : low;
  return low;
}

int64_t checksum(const int64_t* words, int n) {
  int64_t x = 0x5bd1e995;
  for (int i = 0; i < n; ++i) x ^= words[i];
  return x;
}

// A 64-bit sum of bytes: the kernel sums 2^24-element chunks in 32 bits.
uint64_t byte_total(const uint8_t* bytes, size_t n) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) total += bytes[i];
  return total;
}

// Row sums of an image with a row stride: one kernel call for all rows.
void row_totals(const uint8_t* img, int rows, int cols, int stride, uint32_t* out) {
  for (int r = 0; r < rows; ++r) {
    uint32_t t = 0;
    for (int c = 0; c < cols; ++c)
      t += img[r * stride + c];
    out[r] = t;
  }
}

// Row maxima written over the matrix from its second row on: each result changes a row that is
// still to be read, so the rewrite must run the loop as written (its overlap check sees it).
void row_max_shifted(int32_t* m, int rows, int cols) {
  int32_t* out = m + cols;
  for (int r = 0; r < rows; ++r) {
    int32_t best = INT32_MIN;
    for (int c = 0; c < cols; ++c)
      if (m[r * cols + c] > best) best = m[r * cols + c];
    out[r] = best;
  }
}

// Element-wise, saturating: a map kernel (its output may not overlap its input but element for
// element; main.c also calls it shifted by one, which the rewrite must leave to the loop).
void brighten(const uint8_t* in, uint8_t* out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i] > 200 ? 255 : in[i] + 55;
}

// Not a reduction: it writes an array (stays as it is).
int running_peaks(const int* a, int n, int* peaks) {
  int count = 0;
  for (int i = 1; i + 1 < n; ++i)
    if (a[i] > a[i - 1] && a[i] > a[i + 1]) peaks[count++] = i;
  return count;
}
