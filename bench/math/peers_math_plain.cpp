// SPDX-License-Identifier: Apache-2.0
// y[i] = std::exp(x[i]), std::tanh(x[i]), ... as a user writes them, compiled once per build in
// bench/math/CMakeLists.txt (clang++-19 and g++-12 at -O3 -march=native; and with -ffast-math,
// which lets g++-12 -fopenmp-simd and clang++-19 -fveclib=libmvec call glibc's libmvec). The
// build checks with objdump which functions each loop calls (check_calls.cmake), so the names
// below (plain_<fn>_<dtype>) are part of that check.
#include <cmath>
#include <cstdint>

#include "peer_suffix.h"  // PEER(name): name_<build>
#include "peers_math.h"

// The functions this build exports: SIMDGEN_BENCH_MATH_FUNCTIONS, or for clang19_libmvec the
// ones clang++-19 vectorises (-DPLAIN_MATH_FUNCTIONS=..., CMakeLists.txt): the others would be
// the plain loop again under libmvec's name.
#ifndef PLAIN_MATH_FUNCTIONS
#define PLAIN_MATH_FUNCTIONS SIMDGEN_BENCH_MATH_FUNCTIONS
#endif

// Each function as the C library spells it. sigmoid and gelu have no <cmath> function: the
// formulas users write (gelu is PyTorch's exact one, x/2 (1 + erf(x / sqrt 2)), through erfc so
// that negative x keeps its precision).
#define PLAIN_exp(v) std::exp(v)
#define PLAIN_exp2(v) std::exp2(v)
#define PLAIN_expm1(v) std::expm1(v)
#define PLAIN_log(v) std::log(v)
#define PLAIN_log2(v) std::log2(v)
#define PLAIN_log1p(v) std::log1p(v)
#define PLAIN_tanh(v) std::tanh(v)
#define PLAIN_sigmoid(v) (T(1) / (T(1) + std::exp(-(v))))
#define PLAIN_sin(v) std::sin(v)
#define PLAIN_cos(v) std::cos(v)
#define PLAIN_erf(v) std::erf(v)
#define PLAIN_gelu(v) (T(0.5) * (v) * std::erfc((v) * T(-0.70710678118654752440)))

namespace simdgen_bench_math {

namespace {
#define PLAIN_DEFINE(fn, dtype)                                                                          \
  void plain_##fn##_##dtype(const SIMDGEN_BENCH_MATH_T_##dtype* __restrict x, int64_t n,                \
                            SIMDGEN_BENCH_MATH_T_##dtype* __restrict y) {                               \
    using T = SIMDGEN_BENCH_MATH_T_##dtype;                                                              \
    for (int64_t i = 0; i < n; ++i) y[i] = PLAIN_##fn(x[i]);                                             \
  }
PLAIN_MATH_FUNCTIONS(PLAIN_DEFINE)
#undef PLAIN_DEFINE
}  // namespace

// The documented bound (0 here) depends on the build and the function: peers_math.cpp sets it.
std::span<const MathFn> PEER(plain_math_functions)() {
#define PLAIN_ENTRY(fn, dtype) {#fn, #dtype, erase(&plain_##fn##_##dtype), "", 0, 0},
  static const MathFn table[] = {PLAIN_MATH_FUNCTIONS(PLAIN_ENTRY)};
#undef PLAIN_ENTRY
  return table;
}

}  // namespace simdgen_bench_math
