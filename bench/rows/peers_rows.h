// SPDX-License-Identifier: Apache-2.0
// The row-kernel benchmark's peers (bench/rows): every implementation of a case behind the one
// signature of that case (below), so that bench_rows.cpp times them all alike. Each library's
// file exports a table of plain RowsFn entries (no std::string or std::vector crosses from the
// files built with -march=native or by another compiler); peers_rows.cpp turns the tables into
// the list of peers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace simdgen_bench_rows {

// ---- the cases and their signatures -------------------------------------------------------------
// Vectors of n elements: one value. cos is the cosine similarity dot / sqrt(|a|^2 |b|^2), however
// the peer gets the three sums (one pass, or three calls).
using VecF32Fn = float (*)(const float* a, const float* b, int64_t n);      // dot, l2sq, cos
using VecI8Fn = int32_t (*)(const int8_t* a, const int8_t* b, int64_t n);   // dot_i8
// Binary codes of n 64-bit words: the Hamming distance, popcount(a ^ b) summed over the words.
using VecU64Fn = uint64_t (*)(const uint64_t* a, const uint64_t* b, int64_t n);  // hamming_u64
// One query q (cols) against every row of x (rows x cols, contiguous): out[r] = dist(q, x[r]).
using QueryFn = void (*)(const float* x, const float* q, int64_t rows, int64_t cols, float* out);
// Row kernels over rows x cols contiguous f32 rows, y separate from x; g and b have cols elements.
using SoftmaxFn = void (*)(const float* x, int64_t rows, int64_t cols, float* y);
using RmsNormFn = void (*)(const float* x, const float* g, int64_t rows, int64_t cols, float eps, float* y);
using LayerNormFn = void (*)(const float* x, const float* g, const float* b, int64_t rows, int64_t cols,
                             float eps, float* y);
// amax[r] = max |x[r, c]|, q[r, c] = x[r, c] * (127 / amax[r]) rounded to nearest (ties to even).
using QuantizeFn = void (*)(const float* x, int64_t rows, int64_t cols, int8_t* q, float* amax);

// X(case, signature): every case, in the order the tables list them.
#define SIMDGEN_BENCH_ROWS_CASES(X) \
  X(dot_f32, VecF32Fn)              \
  X(l2sq_f32, VecF32Fn)             \
  X(cos_f32, VecF32Fn)              \
  X(dot_i8, VecI8Fn)                \
  X(hamming_u64, VecU64Fn)          \
  X(query_dot_f32, QueryFn)         \
  X(query_l2sq_f32, QueryFn)        \
  X(softmax_f32, SoftmaxFn)         \
  X(rmsnorm_f32, RmsNormFn)         \
  X(layernorm_f32, LayerNormFn)     \
  X(quantize_i8, QuantizeFn)

// One implementation of one case, as a library's file exports it.
struct RowsFn {
  const char* kase;     // "dot_f32", "softmax_f32", ... (SIMDGEN_BENCH_ROWS_CASES)
  const char* impl;     // "simdgen", "simdgen.avx2_fma", "eigen", "simsimd.skylake", ...
  void* call;           // the case's signature
  const char* feature;  // what the CPU needs beyond x86-64 (simdgen variant names, "avx512vnni",
                        // ...; see cpu_supports in peers_rows.cpp); "" nothing
  const char* note;     // how it is computed, for the notes ("3 calls: sdot, snrm2, snrm2")
};

template <class F>
void* erase(F f) {
  return reinterpret_cast<void*>(f);
}

// ---- the peers as bench_rows.cpp sees them ----------------------------------------------------------
struct Peer {
  std::string kase, impl, family;  // family: impl up to its first '.' ("plain", "simdgen", ...)
  void* call;
  bool supported;  // this CPU runs it
  std::string note;
};
// Every peer of every case, in the order the tables list them (peers_rows.cpp).
const std::vector<Peer>& all_peers();
// What the results depend on, for the benchmark's JSON context: the CPU (/proc/cpuinfo), the
// caches, the generated dispatchers' choices, the libraries' versions and kernels, MXCSR.
std::vector<std::pair<std::string, std::string>> context();

// ---- each library's table, one file each --------------------------------------------------------------
// peers_rows_simdgen.cpp: the kernels generated at build time from the specs bench/rows/CMakeLists.txt
// writes: each spec's dispatcher ("simdgen") and its other vector variants by name.
std::span<const RowsFn> simdgen_rows_functions();
std::vector<std::pair<std::string, std::string>> simdgen_dispatch();  // kernel -> variant it runs

// peers_rows_plain.cpp, once per build (CMakeLists.txt; keep in sync): the loops as a user writes
// them, clang++-19 and g++-12 -O3 -march=native, without and with -ffast-math.
#define SIMDGEN_BENCH_ROWS_PLAIN_BUILDS(X) X(clang19) X(gcc12) X(clang19_fastmath) X(gcc12_fastmath)
#define SIMDGEN_BENCH_ROWS_DECLARE_PLAIN(suffix) std::span<const RowsFn> plain_rows_functions_##suffix();
SIMDGEN_BENCH_ROWS_PLAIN_BUILDS(SIMDGEN_BENCH_ROWS_DECLARE_PLAIN)
#undef SIMDGEN_BENCH_ROWS_DECLARE_PLAIN

// peers_rows_eigen.cpp: Eigen 3.4 expressions (-O3 -march=native).
std::span<const RowsFn> eigen_rows_functions();

// Optional peers (CMakeLists.txt defines SIMDGEN_BENCH_ROWS_<NAME> when the library is found).
// peers_rows_highway.cpp: Highway's hwy/contrib/dot (static dispatch, -march=native).
std::span<const RowsFn> highway_rows_functions();
const char* highway_target();
// peers_rows_openblas.cpp: the serial OpenBLAS's cblas_sdot, cblas_snrm2, cblas_sgemv.
std::span<const RowsFn> openblas_rows_functions();
std::string openblas_config();  // sets one thread; version, core, threads
// peers_rows_onednn.cpp: oneDNN's softmax and layer_normalization primitives.
std::span<const RowsFn> onednn_rows_functions();
std::string onednn_config();  // sets one OpenMP thread; version, ISA, threads, implementations
// peers_rows_simsimd.cpp: SimSIMD's dot, l2sq, cos and Hamming kernels by name (header-only).
std::span<const RowsFn> simsimd_rows_functions();

}  // namespace simdgen_bench_rows
