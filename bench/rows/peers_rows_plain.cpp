// SPDX-License-Identifier: Apache-2.0
// Every case as a user writes it in plain C++ (std::exp and std::sqrt on floats: expf, sqrtf), one
// loop per pass, compiled once per build by bench/rows/CMakeLists.txt: clang++-19 and g++-12 -O3
// -march=native, without and with -ffast-math (which lets the compilers reassociate the sums and
// vectorise them, and g++-12 call libmvec's expf). The -ffast-math builds leave out the i8 dot
// and the Hamming distance, where the flag changes nothing.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "peer_suffix.h"  // PEER(name): name_<build>
#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {

float dot(const float* a, const float* b, int64_t n) {
  float s = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

float l2sq(const float* a, const float* b, int64_t n) {
  float s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float d = a[i] - b[i];
    s += d * d;
  }
  return s;
}

float cosine(const float* a, const float* b, int64_t n) {
  float d = 0, na = 0, nb = 0;
  for (int64_t i = 0; i < n; ++i) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / std::sqrt(na * nb);
}

#ifndef __FAST_MATH__
int32_t dot_i8(const int8_t* a, const int8_t* b, int64_t n) {
  int32_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += int32_t(a[i]) * int32_t(b[i]);
  return s;
}

uint64_t hamming_u64(const uint64_t* a, const uint64_t* b, int64_t n) {
  uint64_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += __builtin_popcountll(a[i] ^ b[i]);
  return s;
}
#endif

void query_dot(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  for (int64_t r = 0; r < rows; ++r) out[r] = dot(x + r * cols, q, cols);
}

void query_l2sq(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  for (int64_t r = 0; r < rows; ++r) out[r] = l2sq(x + r * cols, q, cols);
}

// The maximum starts at the row's first element (no infinity, which -ffast-math assumes away).
void softmax(const float* x, int64_t rows, int64_t cols, float* y) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t c = 1; c < cols; ++c) m = std::max(m, xr[c]);
    float s = 0;
    for (int64_t c = 0; c < cols; ++c) {
      yr[c] = std::exp(xr[c] - m);
      s += yr[c];
    }
    for (int64_t c = 0; c < cols; ++c) yr[c] /= s;
  }
}

void rmsnorm(const float* x, const float* g, int64_t rows, int64_t cols, float eps, float* y) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float ss = 0;
    for (int64_t c = 0; c < cols; ++c) ss += xr[c] * xr[c];
    const float scale = 1.0f / std::sqrt(ss / static_cast<float>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) yr[c] = xr[c] * scale * g[c];
  }
}

void layernorm(const float* x, const float* g, const float* b, int64_t rows, int64_t cols, float eps, float* y) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += xr[c];
    const float mean = sum / static_cast<float>(cols);
    float ss = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const float d = xr[c] - mean;
      ss += d * d;
    }
    const float rstd = 1.0f / std::sqrt(ss / static_cast<float>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) yr[c] = (xr[c] - mean) * rstd * g[c] + b[c];
  }
}

void quantize(const float* x, int64_t rows, int64_t cols, int8_t* q, float* amax) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    int8_t* qr = q + r * cols;
    float m = 0;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, std::fabs(xr[c]));
    const float scale = 127.0f / m;
    for (int64_t c = 0; c < cols; ++c) qr[c] = static_cast<int8_t>(std::nearbyint(xr[c] * scale));
    amax[r] = m;
  }
}

}  // namespace

std::span<const RowsFn> PEER(plain_rows_functions)() {
  static const RowsFn table[] = {
      {"dot_f32", "", erase(&dot), "", ""},
      {"l2sq_f32", "", erase(&l2sq), "", ""},
      {"cos_f32", "", erase(&cosine), "", "one loop, three sums"},
#ifndef __FAST_MATH__
      {"dot_i8", "", erase(&dot_i8), "", ""},
      {"hamming_u64", "", erase(&hamming_u64), "", "__builtin_popcountll"},
#endif
      {"query_dot_f32", "", erase(&query_dot), "", ""},
      {"query_l2sq_f32", "", erase(&query_l2sq), "", ""},
      {"softmax_f32", "", erase(&softmax), "", "max; y = exp(x - m) and its sum; y /= sum"},
      {"rmsnorm_f32", "", erase(&rmsnorm), "", ""},
      {"layernorm_f32", "", erase(&layernorm), "", "sum; sum of squared deviations; normalise"},
      {"quantize_i8", "", erase(&quantize), "", "std::nearbyint"},
  };
  return table;
}

}  // namespace simdgen_bench_rows
