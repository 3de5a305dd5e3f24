// SPDX-License-Identifier: Apache-2.0
// What the benchmark suggests the map builder should emit for AVX-512 (see
// docs/benchmarks.md, "map on AVX-512"), hand-written for the three
// benchmarked kernels so that the suggestion is measured, not guessed:
//   - whole vectors unmasked, 4 per iteration, then 1 per iteration, then ONE
//     masked vector for the tail (mask = bzhi(~0, n - i)), instead of a mask
//     computed and applied on every iteration of one loop;
//   - a dispatcher that is one indirect call through a pointer which starts
//     at a resolver (the resolver picks, stores the pointer, and calls on):
//     no guard variable, and the cold selection code is not inlined into
//     the hot entry (GCC 12 then saves and restores 6 registers per call).
// No -march flag: function-level target attributes, like the generated code.
#include <immintrin.h>

#include <cstdint>

#include "peers_map_highway.h"

namespace simdgen_bench {
namespace {

#define SIMDGEN_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,bmi2,fma")))

SIMDGEN_AVX512 inline __mmask16 tail16(int64_t left) {
  return static_cast<__mmask16>(_bzhi_u32(0xffffu, static_cast<unsigned>(left)));
}
SIMDGEN_AVX512 inline __mmask32 tail32(int64_t left) {
  return static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(left)));
}

}  // namespace

SIMDGEN_AVX512 void proposal_times_two_avx512(const float* a, int64_t n, float* b) {
  const __m512 two = _mm512_set1_ps(2.0f);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512 v0 = _mm512_loadu_ps(a + i), v1 = _mm512_loadu_ps(a + i + 16);
    const __m512 v2 = _mm512_loadu_ps(a + i + 32), v3 = _mm512_loadu_ps(a + i + 48);
    _mm512_storeu_ps(b + i, _mm512_mul_ps(v0, two));
    _mm512_storeu_ps(b + i + 16, _mm512_mul_ps(v1, two));
    _mm512_storeu_ps(b + i + 32, _mm512_mul_ps(v2, two));
    _mm512_storeu_ps(b + i + 48, _mm512_mul_ps(v3, two));
  }
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(b + i, _mm512_mul_ps(_mm512_loadu_ps(a + i), two));
  if (i < n) {
    const __mmask16 m = tail16(n - i);
    _mm512_mask_storeu_ps(b + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, a + i), two));
  }
}

SIMDGEN_AVX512 void proposal_axpby_fma_avx512(const float* x, const float* y, int64_t n,
                                              float alpha, float beta, float* out) {
  const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#define f(vx, vy) _mm512_fmadd_ps(va, (vx), _mm512_mul_ps(vb, (vy)))
  int64_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int k = 0; k < 64; k += 16)
      _mm512_storeu_ps(out + i + k, f(_mm512_loadu_ps(x + i + k), _mm512_loadu_ps(y + i + k)));
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(out + i, f(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i)));
  if (i < n) {
    const __mmask16 m = tail16(n - i);
    _mm512_mask_storeu_ps(out + i, m, f(_mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, y + i)));
  }
#undef f
}

// select(a > b, a - b, b - a)
SIMDGEN_AVX512 inline __m512i absdiff16(__m512i va, __m512i vb) {
  return _mm512_mask_blend_epi16(_mm512_cmpgt_epi16_mask(va, vb), _mm512_sub_epi16(vb, va),
                                 _mm512_sub_epi16(va, vb));
}

SIMDGEN_AVX512 void proposal_absdiff_i16_avx512(const int16_t* a, const int16_t* b, int64_t n,
                                                int16_t* out) {
  int64_t i = 0;
  for (; i + 128 <= n; i += 128)
    for (int k = 0; k < 128; k += 32)
      _mm512_storeu_si512(out + i + k,
                          absdiff16(_mm512_loadu_si512(a + i + k), _mm512_loadu_si512(b + i + k)));
  for (; i + 32 <= n; i += 32)
    _mm512_storeu_si512(out + i, absdiff16(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i)));
  if (i < n) {
    const __mmask32 m = tail32(n - i);
    _mm512_mask_storeu_epi16(out + i, m,
                             absdiff16(_mm512_maskz_loadu_epi16(m, a + i),
                                       _mm512_maskz_loadu_epi16(m, b + i)));
  }
}

// ---- dispatch through a self-replacing pointer -----------------------------
namespace {
bool cpu_avx512_bmi2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("bmi2");
}

// Scalar fallbacks (never taken on the benchmark machine).
void times_two_scalar(const float* a, int64_t n, float* b) {
  for (int64_t i = 0; i < n; ++i) b[i] = a[i] * 2.0f;
}

void times_two_resolve(const float* a, int64_t n, float* b);
// Starts at the resolver; every later call is one load + indirect call.
MapF32x1 times_two_ptr = times_two_resolve;
__attribute__((noinline, cold)) void times_two_resolve(const float* a, int64_t n, float* b) {
  const MapF32x1 fn = cpu_avx512_bmi2() ? proposal_times_two_avx512 : times_two_scalar;
  __atomic_store_n(&times_two_ptr, fn, __ATOMIC_RELAXED);  // every thread stores the same value
  fn(a, n, b);
}
}  // namespace

void proposal_times_two(const float* a, int64_t n, float* b) {
  __atomic_load_n(&times_two_ptr, __ATOMIC_RELAXED)(a, n, b);
}

}  // namespace simdgen_bench
