// SPDX-License-Identifier: Apache-2.0
// SLEEF 3.5's vector functions (libsleef-dev), compiled -O3 -march=native (bench/math/
// CMakeLists.txt): u10 (documented 1.0 ULP), u35 (3.5 ULP) where SLEEF has them, for each the
// dispatcher of the AVX-512-wide vectors ("u10": SLEEF picks avx512f or avx512fnofma), the avx512f
// variant by name ("u10.avx512f") and the AVX2 variant at half the width ("u10.avx2"). Whole
// vectors, then one masked (AVX-512) or copied (AVX2) tail. SLEEF has no sigmoid or gelu (not
// composed here: the plain loops show what the formulas cost).
#include <immintrin.h>
#include <sleef.h>

#include <cstring>

#include "peers_math.h"

namespace simdgen_bench_math {

namespace {

template <auto F>  // sleef.h declares them returning `const __m512`
void f32x16(const float* x, int64_t n, float* y) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, F(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(y + i, m, F(_mm512_maskz_loadu_ps(m, x + i)));
  }
}
template <auto F>
void f64x8(const double* x, int64_t n, double* y) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, F(_mm512_loadu_pd(x + i)));
  if (i < n) {
    const __mmask8 m = static_cast<__mmask8>((1u << (n - i)) - 1);
    _mm512_mask_storeu_pd(y + i, m, F(_mm512_maskz_loadu_pd(m, x + i)));
  }
}
template <auto F>
void f32x8(const float* x, int64_t n, float* y) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, F(_mm256_loadu_ps(x + i)));
  if (i < n) {
    alignas(32) float t[8] = {};
    std::memcpy(t, x + i, static_cast<size_t>(n - i) * sizeof(float));
    _mm256_store_ps(t, F(_mm256_load_ps(t)));
    std::memcpy(y + i, t, static_cast<size_t>(n - i) * sizeof(float));
  }
}
template <auto F>
void f64x4(const double* x, int64_t n, double* y) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, F(_mm256_loadu_pd(x + i)));
  if (i < n) {
    alignas(32) double t[4] = {};
    std::memcpy(t, x + i, static_cast<size_t>(n - i) * sizeof(double));
    _mm256_store_pd(t, F(_mm256_load_pd(t)));
    std::memcpy(y + i, t, static_cast<size_t>(n - i) * sizeof(double));
  }
}

}  // namespace

// X(fn, dtype, accuracy, documented ULP): every function SLEEF 3.5 has (sleef.h) that simdgen
// offers in that dtype; u35 only where SLEEF has it (no u35 exp, expm1, log1p or erf).
#define SLEEF_MATH_FUNCTIONS(X)                                                     \
  X(exp, f32, u10, 1) X(exp2, f32, u10, 1) X(exp2, f32, u35, 4) X(expm1, f32, u10, 1) \
  X(log, f32, u10, 1) X(log, f32, u35, 4) X(log2, f32, u10, 1) X(log2, f32, u35, 4)   \
  X(log1p, f32, u10, 1) X(tanh, f32, u10, 1) X(tanh, f32, u35, 4)                      \
  X(sin, f32, u10, 1) X(sin, f32, u35, 4) X(cos, f32, u10, 1) X(cos, f32, u35, 4)      \
  X(erf, f32, u10, 1)                                                                  \
  X(exp, f64, u10, 1) X(exp2, f64, u10, 1) X(exp2, f64, u35, 4) X(expm1, f64, u10, 1) \
  X(log, f64, u10, 1) X(log, f64, u35, 4) X(log2, f64, u10, 1) X(log2, f64, u35, 4)   \
  X(log1p, f64, u10, 1) X(tanh, f64, u10, 1) X(tanh, f64, u35, 4)

// Sleef_<fn><lanes>_<accuracy><isa>: Sleef_expf16_u10, Sleef_expf16_u10avx512f, Sleef_expf8_u10avx2.
#define SLEEF_WIDE_f32 f16
#define SLEEF_HALF_f32 f8
#define SLEEF_WIDE_f64 d8
#define SLEEF_HALF_f64 d4
#define SLEEF_LOOP_WIDE_f32 f32x16
#define SLEEF_LOOP_HALF_f32 f32x8
#define SLEEF_LOOP_WIDE_f64 f64x8
#define SLEEF_LOOP_HALF_f64 f64x4
#define SLEEF_NAME2(fn, lanes, acc, isa) Sleef_##fn##lanes##_##acc##isa
#define SLEEF_NAME(fn, lanes, acc, isa) SLEEF_NAME2(fn, lanes, acc, isa)
#define SLEEF_LOOP(loop, fn, lanes, acc, isa) erase(&loop<SLEEF_NAME(fn, lanes, acc, isa)>)

// sleef.h declares the 512-bit functions (and the dispatcher of that width) only where the
// compiler targets AVX-512 (-march=native on an AVX2-only CPU: the AVX2 entries alone).
#ifdef __AVX512F__
#define SLEEF_WIDE_ENTRIES(fn, dtype, acc, ulp)                                                    \
  {#fn, #dtype, SLEEF_LOOP(SLEEF_LOOP_WIDE_##dtype, fn, SLEEF_WIDE_##dtype, acc, ), #acc, ulp, 2}, \
  {#fn, #dtype, SLEEF_LOOP(SLEEF_LOOP_WIDE_##dtype, fn, SLEEF_WIDE_##dtype, acc, avx512f), #acc ".avx512f", ulp, 2},
#else
#define SLEEF_WIDE_ENTRIES(fn, dtype, acc, ulp)
#endif

std::span<const MathFn> sleef_math_functions() {
#define SLEEF_ENTRY(fn, dtype, acc, ulp)                                                             \
  SLEEF_WIDE_ENTRIES(fn, dtype, acc, ulp)                                                            \
  {#fn, #dtype, SLEEF_LOOP(SLEEF_LOOP_HALF_##dtype, fn, SLEEF_HALF_##dtype, acc, avx2), #acc ".avx2", ulp, 1},
  static const MathFn table[] = {SLEEF_MATH_FUNCTIONS(SLEEF_ENTRY)};
#undef SLEEF_ENTRY
  return table;
}

#define SIMDGEN_STR2(x) #x
#define SIMDGEN_STR(x) SIMDGEN_STR2(x)
const char* sleef_version() {
  return SIMDGEN_STR(SLEEF_VERSION_MAJOR) "." SIMDGEN_STR(SLEEF_VERSION_MINOR) "." SIMDGEN_STR(SLEEF_VERSION_PATCHLEVEL);
}

}  // namespace simdgen_bench_math
