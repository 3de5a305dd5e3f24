// SPDX-License-Identifier: Apache-2.0
// Generated kernels called from C11 (their headers have C linkage and C prototypes): a reduction,
// an arg_reduce and a map, through the dispatcher and the scalar variant, against plain C loops.
// Every value is exact (small integers, quarter multiples), so results must match bit for bit.
//   c_ffi_test              check, then print the variants the dispatchers chose
//   c_ffi_test --variants   print "KERNEL SUFFIX" for every variant the headers declare here (X-macros)
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "argmax_f32.h"
#include "map_axpy_f32_rows.h"
#include "rowsum_i8.h"

static int failures;

static void fail(const char* what, int64_t size, int64_t at) {
  fprintf(stderr, "FAIL: %s, size %lld, element %lld\n", what, (long long)size, (long long)at);
  ++failures;
}

// Deterministic pseudo-random bytes (a 32-bit LCG), so every run sees the same data.
static uint32_t state = 12345u;
static int next_small(int range) {
  state = state * 1664525u + 1013904223u;
  return (int)((state >> 8) % (uint32_t)range);
}

// Row lengths around every vector width (16..64 bytes of i8 or f32) and their tails.
static const int64_t lengths[] = {0, 1, 3, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 257};
enum { kLengths = sizeof lengths / sizeof lengths[0], kRows = 37, kMaxCols = 257, kPad = 3 };

typedef void (*rowsum_fn)(const int8_t*, int64_t, int64_t, int64_t, int32_t*);
typedef void (*argmax_fn)(const float*, int64_t, float*, int64_t*);
typedef void (*map_fn)(const float*, const float*, int64_t, int64_t, int64_t, float*, float*, float*);

static int8_t bytes[kRows * (kMaxCols + kPad)];
static float xs[kRows * (kMaxCols + kPad)], ys[kRows * (kMaxCols + kPad)];

static void check_rowsum(rowsum_fn fn, const char* label) {
  for (int k = 0; k < kLengths; ++k) {
    const int64_t cols = lengths[k], stride = cols + kPad;
    int32_t out[kRows];
    for (int64_t i = 0; i < kRows * stride; ++i) bytes[i] = (int8_t)(next_small(256) - 128);
    fn(bytes, kRows, cols, stride, out);
    for (int64_t r = 0; r < kRows; ++r) {
      int32_t sum = 0;
      for (int64_t c = 0; c < cols; ++c) sum += bytes[r * stride + c];
      if (out[r] != sum) fail(label, cols, r);
    }
  }
}

static void check_argmax(argmax_fn fn, const char* label) {
  for (int k = 0; k < kLengths; ++k) {
    const int64_t n = lengths[k];
    for (int64_t j = 0; j < n; ++j) xs[j] = next_small(16) == 0 ? NAN : (float)(next_small(64) - 32) * 0.25f;
    float best = -INFINITY, value = 0;
    int64_t index = -1, got = 7;
    for (int64_t j = 0; j < n; ++j)  // the kernel's documented loop: NaN never beats
      if (xs[j] > best) {
        best = xs[j];
        index = j;
      }
    fn(xs, n, &value, &got);
    if (got != index || value != best) fail(label, n, got);
  }
}

static void check_map(map_fn fn, const char* label) {
  enum { rows = 5 };
  static float axpy[rows * (kMaxCols + kPad)], fused[rows * (kMaxCols + kPad)], relu[rows * (kMaxCols + kPad)];
  for (int k = 0; k < kLengths; ++k) {
    const int64_t cols = lengths[k], stride = cols + kPad;
    for (int64_t i = 0; i < rows * stride; ++i) {
      xs[i] = (float)(next_small(64) - 32) * 0.25f;
      ys[i] = (float)(next_small(64) - 32) * 0.25f;
    }
    fn(xs, ys, rows, cols, stride, axpy, fused, relu);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t i = r * stride + c;
        const float x = xs[i], y = ys[i], scaled = x * 0.5f - 1;
        if (axpy[i] != 2.5f * x + y || fused[i] != x * -0.75f + y || relu[i] != (scaled > 0 ? scaled : 0))
          fail(label, cols, i);
      }
  }
}

// The X-macros list each kernel's variants declared on this architecture, best first.
#define ROWSUM_LINE(v) "rowsum_i8 " #v "\n"
#define ARGMAX_LINE(v) "argmax_f32 " #v "\n"
#define MAP_LINE(v) "map_axpy_f32_rows " #v "\n"

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--variants") == 0) {
    fputs(SIMDGEN_rowsum_i8_VARIANTS(ROWSUM_LINE), stdout);
    fputs(SIMDGEN_argmax_f32_VARIANTS(ARGMAX_LINE), stdout);
    fputs(SIMDGEN_map_axpy_f32_rows_VARIANTS(MAP_LINE), stdout);
    return 0;
  }
  check_rowsum(rowsum_i8, "rowsum_i8");
  check_rowsum(rowsum_i8_scalar, "rowsum_i8_scalar");
  check_argmax(argmax_f32, "argmax_f32");
  check_argmax(argmax_f32_scalar, "argmax_f32_scalar");
  check_map(map_axpy_f32_rows, "map_axpy_f32_rows");
  check_map(map_axpy_f32_rows_scalar, "map_axpy_f32_rows_scalar");
  printf("rowsum_i8=%s argmax_f32=%s map_axpy_f32_rows=%s\n", rowsum_i8_variant(), argmax_f32_variant(),
         map_axpy_f32_rows_variant());
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
