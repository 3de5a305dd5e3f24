// SPDX-License-Identifier: Apache-2.0
// The math benchmark's peers (bench/math): every implementation of y[i] = f(x[i]) behind one
// signature, void(const T* x, int64_t n, T* y), the generated kernels'. The functions and dtypes
// are SIMDGEN_BENCH_MATH_FUNCTIONS(X) (bench_math_functions.inc, written by CMakeLists.txt from
// its lists of what simdgen offers); each library's file lists what it has of them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench_math_functions.inc"  // SIMDGEN_BENCH_MATH_FUNCTIONS(X): X(fn, dtype)

#define SIMDGEN_BENCH_MATH_T_f32 float
#define SIMDGEN_BENCH_MATH_T_f64 double

namespace simdgen_bench_math {

using F32Fn = void (*)(const float*, int64_t, float*);
using F64Fn = void (*)(const double*, int64_t, double*);

struct Peer {
  std::string impl;    // "simdgen.ulp1.avx512", "sleef.u35.avx512f", "libmvec.gcc12", ...
  std::string family;  // "simdgen", "sleef", "libmvec", "hwy", "eigen", "plain"
  std::string fn;      // "exp", "tanh", "sigmoid", ... (docs/math.md's names)
  bool f64;
  // The bound the implementation documents, in ULP: 1 (simdgen max_ulp 1, SLEEF u10, glibc's
  // scalar functions, Highway's Exp), 4 (simdgen max_ulp 4, SLEEF u35 = 3.5, libmvec, Highway's
  // Log), ...; 0 where none is documented (Eigen; sigmoid and gelu written from exp and erfc).
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

// ---- the peers, one file each ------------------------------------------------------------------
// Each library's file exports a table of what it has; peers_math.cpp (default flags) turns the
// tables into Peers. The files compiled with -march=native or by another compiler keep to this
// plain struct: no std::string or std::vector crosses from them.
struct MathFn {
  const char* fn;       // "exp"
  const char* dtype;    // "f32" or "f64"
  void* call;           // F32Fn or F64Fn
  const char* variant;  // SLEEF: "u10", "u35.avx512f", ...; "" elsewhere
  int documented_ulp;   // as Peer::documented_ulp
  int feature;          // what the CPU needs: 0 nothing beyond the build's, 1 AVX2+FMA, 2 AVX-512F
};

template <class T>
void* erase(void (*f)(const T*, int64_t, T*)) {
  return reinterpret_cast<void*>(f);
}

// peers_math_plain.cpp, once per build (CMakeLists.txt; keep in sync): plain loops
// y[i] = std::exp(x[i]) (sigmoid: 1 / (1 + std::exp(-x)), gelu: x/2 std::erfc(-x / sqrt 2)) by
// clang++-19 and g++-12 at -O3 -march=native, and the same loops with -ffast-math vectorised by
// the compilers into calls to glibc's libmvec (clang19_libmvec: only the functions clang++-19
// vectorises, SIMDGEN_BENCH_MATH_CLANG_LIBMVEC).
#define SIMDGEN_BENCH_MATH_PLAIN_BUILDS(X) X(clang19) X(gcc12) X(gcc12_libmvec) X(clang19_libmvec)
#define SIMDGEN_BENCH_MATH_DECLARE_PLAIN(suffix) std::span<const MathFn> plain_math_functions_##suffix();
SIMDGEN_BENCH_MATH_PLAIN_BUILDS(SIMDGEN_BENCH_MATH_DECLARE_PLAIN)
#undef SIMDGEN_BENCH_MATH_DECLARE_PLAIN

// peers_math_highway.cpp: hwy/contrib/math, static dispatch (-march=native).
std::span<const MathFn> highway_math_functions();
const char* highway_target();  // Highway's static target, e.g. "AVX3"

// peers_math_eigen.cpp: Eigen::ArrayX*'s .exp(), .tanh(), .logistic(), ... (-march=native).
std::span<const MathFn> eigen_math_functions();

// peers_math_sleef.cpp (when SLEEF is found): u10/u35 (u15 erfc for gelu) of SLEEF 3.5.
std::span<const MathFn> sleef_math_functions();
const char* sleef_version();  // "3.5.1" (SLEEF's compile-time version macros)

}  // namespace simdgen_bench_math
