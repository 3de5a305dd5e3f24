// SPDX-License-Identifier: Apache-2.0
// Independent FMA chains: kZmmChains / kYmmChains accumulators, each updated
// by one FMA per trip, so that the FMA units, not the FMA latency, bound the
// loop (latency 4 x 2 pipes needs 8 chains in flight; more leave room for a
// core with more or wider units). acc = acc * m + c with m just below 1 converges instead of
// overflowing, and never reaches subnormals. Function-level target
// attributes, no -march, like the generated code.
#include "peers_contraction_peak.h"

#include <immintrin.h>

namespace simdgen_bench {

__attribute__((target("avx512f,fma"))) float fma_peak_zmm(float x) {
  const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-6f);
  __m512 a[kZmmChains];
  for (int i = 0; i < kZmmChains; ++i) a[i] = _mm512_set1_ps(x + static_cast<float>(i));
  for (int64_t s = 0; s < kPeakSteps; ++s) {
#pragma GCC unroll 16
    for (int i = 0; i < kZmmChains; ++i) a[i] = _mm512_fmadd_ps(a[i], m, c);
  }
  for (int i = 1; i < kZmmChains; ++i) a[0] = _mm512_add_ps(a[0], a[i]);
  // Through memory: GCC 12's _mm512_reduce_add_ps trips -Wuninitialized.
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, a[0]);
  float sum = 0;
  for (float v : lanes) sum += v;
  return sum;
}

__attribute__((target("avx2,fma"))) float fma_peak_ymm(float x) {
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
  __m256 a[kYmmChains];
  for (int i = 0; i < kYmmChains; ++i) a[i] = _mm256_set1_ps(x + static_cast<float>(i));
  for (int64_t s = 0; s < kPeakSteps; ++s) {
#pragma GCC unroll 12
    for (int i = 0; i < kYmmChains; ++i) a[i] = _mm256_fmadd_ps(a[i], m, c);
  }
  for (int i = 1; i < kYmmChains; ++i) a[0] = _mm256_add_ps(a[0], a[i]);
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(a[0]), _mm256_extractf128_ps(a[0], 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_movehdup_ps(h));
  return _mm_cvtss_f32(h);
}

}  // namespace simdgen_bench
