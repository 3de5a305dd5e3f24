// SPDX-License-Identifier: Apache-2.0
// The generated kernels (specs written by bench/rows/CMakeLists.txt, generated at build time) behind
// the cases' signatures (peers_rows.h): "simdgen" is each kernel's dispatcher, "simdgen.<variant>"
// each other vector variant called by name (the scalar ones are dropped by peers_rows.cpp).
// Compiled with the project's default flags, like the kernels: no -march.
#include <cmath>
#include <cstdint>
#include <vector>

#include "peers_rows.h"
#include "rows_cos_f32.h"
#include "rows_dot_f32.h"
#include "rows_dot_i8.h"
#include "rows_hamming_u64.h"
#include "rows_l2sq_f32.h"
#include "rows_layernorm_f32.h"
#include "rows_query_dot_f32.h"
#include "rows_query_l2sq_f32.h"
#include "rows_quantize_i8.h"
#include "rows_rmsnorm_f32.h"
#include "rows_softmax_expsum_f32.h"
#include "rows_softmax_f32.h"
#include "rows_softmax_max_f32.h"
#include "rows_softmax_recip_f32.h"
#include "rows_softmax_scale_f32.h"

namespace simdgen_bench_rows {

namespace {

// Rank-1 reductions write one value through a pointer; the cases return it.
template <auto K>
float one_f32(const float* a, const float* b, int64_t n) {
  float r;
  K(a, b, n, &r);
  return r;
}

template <auto K>
int32_t one_i32(const int8_t* a, const int8_t* b, int64_t n) {
  int32_t r;
  K(a, b, n, &r);
  return r;
}

template <auto K>
uint64_t one_u64(const uint64_t* a, const uint64_t* b, int64_t n) {
  uint64_t r;
  K(a, b, n, &r);
  return r;
}

// The three sums in one pass, then the similarity (as every peer finishes it).
template <auto K>
float cosine(const float* a, const float* b, int64_t n) {
  float dot, na, nb;
  K(a, b, n, &dot, &na, &nb);
  return dot / std::sqrt(na * nb);
}

// The kernel's outputs are in spec order (amax, then q).
template <auto K>
void quantize(const float* x, int64_t rows, int64_t cols, int8_t* q, float* amax) {
  K(x, rows, cols, amax, q);
}

// Softmax from three separate kernels, each over the whole matrix: maxima, then e = exp(x - m) into
// y with the row sums, then y = e / s in place. Between kernels the matrix goes through whichever
// cache level holds it.
void softmax_unfused(const float* x, int64_t rows, int64_t cols, float* y) {
  static thread_local std::vector<float> m, s;
  m.resize(static_cast<size_t>(rows));
  s.resize(static_cast<size_t>(rows));
  rows_softmax_max_f32(x, rows, cols, m.data());
  rows_softmax_expsum_f32(x, m.data(), rows, cols, y, s.data());
  rows_softmax_scale_f32(y, s.data(), rows, cols, y);
}

// The same three kernels called row by row: the row stays in L1 between them (three calls per row).
void softmax_unfused_rowwise(const float* x, int64_t rows, int64_t cols, float* y) {
  for (int64_t r = 0; r < rows; ++r) {
    float m, s;
    rows_softmax_max_f32(x + r * cols, 1, cols, &m);
    rows_softmax_expsum_f32(x + r * cols, &m, 1, cols, y + r * cols, &s);
    rows_softmax_scale_f32(y + r * cols, &s, 1, cols, y + r * cols);
  }
}

const std::vector<RowsFn>& table() {
  static const std::vector<RowsFn> t = [] {
    std::vector<RowsFn> v;
    // "simdgen" (the dispatcher) and "simdgen.<variant>" (feature = the variant's name) of a kernel
    // whose signature is the case's (wrap = direct) or needs a wrapper.
#define ROWS_ENTRY(v_, kase, kernel, call)                                                          \
  v.push_back({#kase, "simdgen", erase(call(kernel)), "", "dispatcher"});                           \
  SIMDGEN_##kernel##_VARIANTS(v_)
#define DIRECT(k) &k
#define ONE_F32(k) &one_f32<&k>
#define ONE_I32(k) &one_i32<&k>
#define ONE_U64(k) &one_u64<&k>
#define COSINE(k) &cosine<&k>
#define QUANTIZE(k) &quantize<&k>
#define VARIANT(kase, call, kernel, s) \
  v.push_back({#kase, "simdgen." #s, erase(call(kernel##_##s)), #s, "variant called by name"});
#define V_DOT(s) VARIANT(dot_f32, ONE_F32, rows_dot_f32, s)
#define V_L2SQ(s) VARIANT(l2sq_f32, ONE_F32, rows_l2sq_f32, s)
#define V_COS(s) VARIANT(cos_f32, COSINE, rows_cos_f32, s)
#define V_DOT_I8(s) VARIANT(dot_i8, ONE_I32, rows_dot_i8, s)
#define V_HAMMING(s) VARIANT(hamming_u64, ONE_U64, rows_hamming_u64, s)
#define V_QDOT(s) VARIANT(query_dot_f32, DIRECT, rows_query_dot_f32, s)
#define V_QL2(s) VARIANT(query_l2sq_f32, DIRECT, rows_query_l2sq_f32, s)
#define V_SOFTMAX(s) VARIANT(softmax_f32, DIRECT, rows_softmax_f32, s)
#define V_RMS(s) VARIANT(rmsnorm_f32, DIRECT, rows_rmsnorm_f32, s)
#define V_LN(s) VARIANT(layernorm_f32, DIRECT, rows_layernorm_f32, s)
#define V_QUANT(s) VARIANT(quantize_i8, QUANTIZE, rows_quantize_i8, s)
    ROWS_ENTRY(V_DOT, dot_f32, rows_dot_f32, ONE_F32)
    ROWS_ENTRY(V_L2SQ, l2sq_f32, rows_l2sq_f32, ONE_F32)
    ROWS_ENTRY(V_COS, cos_f32, rows_cos_f32, COSINE)
    ROWS_ENTRY(V_DOT_I8, dot_i8, rows_dot_i8, ONE_I32)
    ROWS_ENTRY(V_HAMMING, hamming_u64, rows_hamming_u64, ONE_U64)
    ROWS_ENTRY(V_QDOT, query_dot_f32, rows_query_dot_f32, DIRECT)
    ROWS_ENTRY(V_QL2, query_l2sq_f32, rows_query_l2sq_f32, DIRECT)
    ROWS_ENTRY(V_SOFTMAX, softmax_f32, rows_softmax_f32, DIRECT)
    v.push_back({"softmax_f32", "simdgen.recip", erase(&rows_softmax_recip_f32), "",
                 "exp(x - row_max) * (1 / row_sum): the reciprocal once per row"});
    v.push_back({"softmax_f32", "simdgen.unfused", erase(&softmax_unfused), "",
                 "3 kernels over the whole matrix: max; exp(x - m) and sums; e / s in place"});
    v.push_back({"softmax_f32", "simdgen.unfused_rowwise", erase(&softmax_unfused_rowwise), "",
                 "the same 3 kernels called per row"});
    ROWS_ENTRY(V_RMS, rmsnorm_f32, rows_rmsnorm_f32, DIRECT)
    ROWS_ENTRY(V_LN, layernorm_f32, rows_layernorm_f32, DIRECT)
    ROWS_ENTRY(V_QUANT, quantize_i8, rows_quantize_i8, QUANTIZE)
    return v;
  }();
  return t;
}

}  // namespace

std::span<const RowsFn> simdgen_rows_functions() { return table(); }

std::vector<std::pair<std::string, std::string>> simdgen_dispatch() {
  return {{"dot_f32", rows_dot_f32_variant()},
          {"l2sq_f32", rows_l2sq_f32_variant()},
          {"cos_f32", rows_cos_f32_variant()},
          {"dot_i8", rows_dot_i8_variant()},
          {"hamming_u64", rows_hamming_u64_variant()},
          {"query_dot_f32", rows_query_dot_f32_variant()},
          {"query_l2sq_f32", rows_query_l2sq_f32_variant()},
          {"softmax_f32", rows_softmax_f32_variant()},
          {"rmsnorm_f32", rows_rmsnorm_f32_variant()},
          {"layernorm_f32", rows_layernorm_f32_variant()},
          {"quantize_i8", rows_quantize_i8_variant()}};
}

}  // namespace simdgen_bench_rows
