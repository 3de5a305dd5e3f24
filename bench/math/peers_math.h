// SPDX-License-Identifier: Apache-2.0
// The math benchmark's peers (bench/math): every implementation of y[i] = f(x[i]), f in {exp, log},
// f32 and f64, behind one signature, void(const T* x, int64_t n, T* y), the generated kernels'.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simdgen_bench_math {

using F32Fn = void (*)(const float*, int64_t, float*);
using F64Fn = void (*)(const double*, int64_t, double*);

struct Peer {
  std::string impl;    // "simdgen.ulp1.avx512", "sleef.u35.avx512f", "libmvec.gcc12", ...
  std::string family;  // "simdgen", "sleef", "libmvec", "hwy", "eigen", "plain"
  std::string fn;      // "exp" or "log"
  bool f64;
  // The bound the implementation documents, in ULP: 1 (simdgen max_ulp 1, SLEEF u10, glibc's
  // scalar functions, Highway's Exp), 4 (simdgen max_ulp 4, SLEEF u35 = 3.5, libmvec, Highway's
  // Log), 0 where none is documented (Eigen).
  int documented_ulp;
  void* call;  // F32Fn or F64Fn
  bool supported;  // this CPU runs it
  std::string note;
};

// Every peer, in the order the tables list them (peers_math.cpp).
const std::vector<Peer>& all_peers();

// What the results depend on, for the benchmark's context and the accuracy report: the CPU
// (/proc/cpuinfo: model name, family, model), the generated dispatcher's choice, Highway's static
// target, SLEEF's version, MXCSR.
std::vector<std::pair<std::string, std::string>> context();

// Highway's static target (peers_math_highway.cpp), e.g. "AVX3".
const char* highway_target();

// ---- the peers, one file each ------------------------------------------------------------------
// peers_math_plain.cpp, once per build (bench/math/CMakeLists.txt; keep in sync): plain loops
// y[i] = std::exp(x[i]) by clang++-19 and g++-12 at -O3 -march=native, and the same loops with
// -ffast-math vectorised by the compilers into calls to glibc's libmvec.
#define SIMDGEN_BENCH_MATH_PLAIN_BUILDS(X) X(clang19) X(gcc12) X(gcc12_libmvec) X(clang19_libmvec)
#define SIMDGEN_BENCH_MATH_DECLARE_PLAIN(suffix)                   \
  void plain_exp_f32_##suffix(const float* x, int64_t n, float* y);   \
  void plain_log_f32_##suffix(const float* x, int64_t n, float* y);   \
  void plain_exp_f64_##suffix(const double* x, int64_t n, double* y); \
  void plain_log_f64_##suffix(const double* x, int64_t n, double* y);
SIMDGEN_BENCH_MATH_PLAIN_BUILDS(SIMDGEN_BENCH_MATH_DECLARE_PLAIN)
#undef SIMDGEN_BENCH_MATH_DECLARE_PLAIN

// peers_math_highway.cpp: hwy/contrib/math Exp and Log, static dispatch (-march=native).
void hwy_exp_f32(const float* x, int64_t n, float* y);
void hwy_log_f32(const float* x, int64_t n, float* y);
void hwy_exp_f64(const double* x, int64_t n, double* y);
void hwy_log_f64(const double* x, int64_t n, double* y);

// peers_math_eigen.cpp: Eigen::ArrayX*.exp() / .log() (-march=native).
void eigen_exp_f32(const float* x, int64_t n, float* y);
void eigen_log_f32(const float* x, int64_t n, float* y);
void eigen_exp_f64(const double* x, int64_t n, double* y);
void eigen_log_f64(const double* x, int64_t n, double* y);

// peers_math_sleef.cpp (when SLEEF is found): SLEEF_PEERS(X) lists
// X(impl suffix, function, dtype, documented ULP, required CPU feature: 0 none, 1 AVX2+FMA, 2 AVX-512F).
// "u10" is the dispatcher of SLEEF's vectors as wide as AVX-512 (Sleef_expf16_u10: SLEEF picks
// avx512f or avx512fnofma); "u10.avx512f" calls that variant by name; "u10.avx2" is the AVX2 one
// at half the width. SLEEF 3.5 has no u35 exp: its only exp is u10.
#define SIMDGEN_BENCH_MATH_SLEEF_PEERS(X)   \
  X(u10, exp, f32, 1, 2)                    \
  X(u10_avx512f, exp, f32, 1, 2)            \
  X(u10_avx2, exp, f32, 1, 1)               \
  X(u10, log, f32, 1, 2)                    \
  X(u10_avx512f, log, f32, 1, 2)            \
  X(u10_avx2, log, f32, 1, 1)               \
  X(u35, log, f32, 4, 2)                    \
  X(u35_avx512f, log, f32, 4, 2)            \
  X(u35_avx2, log, f32, 4, 1)               \
  X(u10, exp, f64, 1, 2)                    \
  X(u10_avx512f, exp, f64, 1, 2)            \
  X(u10_avx2, exp, f64, 1, 1)               \
  X(u10, log, f64, 1, 2)                    \
  X(u10_avx512f, log, f64, 1, 2)            \
  X(u10_avx2, log, f64, 1, 1)               \
  X(u35, log, f64, 4, 2)                    \
  X(u35_avx512f, log, f64, 4, 2)            \
  X(u35_avx2, log, f64, 4, 1)
#define SIMDGEN_BENCH_MATH_SLEEF_T_f32 float
#define SIMDGEN_BENCH_MATH_SLEEF_T_f64 double
#define SIMDGEN_BENCH_MATH_DECLARE_SLEEF(variant, fn, dtype, ulp, feature)                          \
  void sleef_##fn##_##dtype##_##variant(const SIMDGEN_BENCH_MATH_SLEEF_T_##dtype* x, int64_t n, \
                                       SIMDGEN_BENCH_MATH_SLEEF_T_##dtype* y);
SIMDGEN_BENCH_MATH_SLEEF_PEERS(SIMDGEN_BENCH_MATH_DECLARE_SLEEF)
#undef SIMDGEN_BENCH_MATH_DECLARE_SLEEF
// "3.5.1" (SLEEF's compile-time version macros), or "" without SLEEF.
const char* sleef_version();

}  // namespace simdgen_bench_math
