// SPDX-License-Identifier: Apache-2.0
// SLEEF 3.5's vector exp and log (libsleef-dev), compiled -O3 -march=native (bench/math/
// CMakeLists.txt): u10 (documented 1.0 ULP) and u35 (3.5 ULP; SLEEF has it for log, not for exp),
// the dispatcher of the AVX-512-wide vectors, the avx512f variant by name, and the AVX2 variant at
// half the width. Whole vectors, then one masked (AVX-512) or copied (AVX2) tail.
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

// Keep in sync with SIMDGEN_BENCH_MATH_SLEEF_PEERS in peers_math.h.
void sleef_exp_f32_u10(const float* x, int64_t n, float* y) { f32x16<Sleef_expf16_u10>(x, n, y); }
void sleef_exp_f32_u10_avx512f(const float* x, int64_t n, float* y) { f32x16<Sleef_expf16_u10avx512f>(x, n, y); }
void sleef_exp_f32_u10_avx2(const float* x, int64_t n, float* y) { f32x8<Sleef_expf8_u10avx2>(x, n, y); }
void sleef_log_f32_u10(const float* x, int64_t n, float* y) { f32x16<Sleef_logf16_u10>(x, n, y); }
void sleef_log_f32_u10_avx512f(const float* x, int64_t n, float* y) { f32x16<Sleef_logf16_u10avx512f>(x, n, y); }
void sleef_log_f32_u10_avx2(const float* x, int64_t n, float* y) { f32x8<Sleef_logf8_u10avx2>(x, n, y); }
void sleef_log_f32_u35(const float* x, int64_t n, float* y) { f32x16<Sleef_logf16_u35>(x, n, y); }
void sleef_log_f32_u35_avx512f(const float* x, int64_t n, float* y) { f32x16<Sleef_logf16_u35avx512f>(x, n, y); }
void sleef_log_f32_u35_avx2(const float* x, int64_t n, float* y) { f32x8<Sleef_logf8_u35avx2>(x, n, y); }
void sleef_exp_f64_u10(const double* x, int64_t n, double* y) { f64x8<Sleef_expd8_u10>(x, n, y); }
void sleef_exp_f64_u10_avx512f(const double* x, int64_t n, double* y) { f64x8<Sleef_expd8_u10avx512f>(x, n, y); }
void sleef_exp_f64_u10_avx2(const double* x, int64_t n, double* y) { f64x4<Sleef_expd4_u10avx2>(x, n, y); }
void sleef_log_f64_u10(const double* x, int64_t n, double* y) { f64x8<Sleef_logd8_u10>(x, n, y); }
void sleef_log_f64_u10_avx512f(const double* x, int64_t n, double* y) { f64x8<Sleef_logd8_u10avx512f>(x, n, y); }
void sleef_log_f64_u10_avx2(const double* x, int64_t n, double* y) { f64x4<Sleef_logd4_u10avx2>(x, n, y); }
void sleef_log_f64_u35(const double* x, int64_t n, double* y) { f64x8<Sleef_logd8_u35>(x, n, y); }
void sleef_log_f64_u35_avx512f(const double* x, int64_t n, double* y) { f64x8<Sleef_logd8_u35avx512f>(x, n, y); }
void sleef_log_f64_u35_avx2(const double* x, int64_t n, double* y) { f64x4<Sleef_logd4_u35avx2>(x, n, y); }

#define SIMDGEN_STR2(x) #x
#define SIMDGEN_STR(x) SIMDGEN_STR2(x)
const char* sleef_version() {
  return SIMDGEN_STR(SLEEF_VERSION_MAJOR) "." SIMDGEN_STR(SLEEF_VERSION_MINOR) "." SIMDGEN_STR(SLEEF_VERSION_PATCHLEVEL);
}

}  // namespace simdgen_bench_math
