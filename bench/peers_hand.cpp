// SPDX-License-Identifier: Apache-2.0
#include "peers_hand.h"

#include <immintrin.h>

namespace simdgen_bench {

namespace {

__attribute__((target("avx512f,avx512bw,avx512vnni"))) inline int32_t sum_epi32(__m512i v) {
  const __m256i h = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  __m128i q = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  q = _mm_add_epi32(q, _mm_shuffle_epi32(q, 0x4E));
  q = _mm_add_epi32(q, _mm_shuffle_epi32(q, 0xB1));
  return _mm_cvtsi128_si32(q);
}

__attribute__((target("avx512f,avx512dq"))) inline float sum_ps512(__m512 v) {
  const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
  __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  q = _mm_add_ps(q, _mm_movehl_ps(q, q));
  q = _mm_add_ss(q, _mm_movehdup_ps(q));
  return _mm_cvtss_f32(q);
}

__attribute__((target("avx2"))) inline float sum_ps256(__m256 v) {
  __m128 q = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  q = _mm_add_ps(q, _mm_movehl_ps(q, q));
  q = _mm_add_ss(q, _mm_movehdup_ps(q));
  return _mm_cvtss_f32(q);
}

}  // namespace

__attribute__((target("avx512f,avx512bw,avx512dq,avx512vnni,bmi2")))
void hand_rowsum_i8_avx512_vnni(const int8_t* input, int64_t rows, int64_t cols, int64_t stride, int32_t* out) {
  const __m512i ones = _mm512_set1_epi8(1);
  for (int64_t i = 0; i < rows; ++i) {
    const int8_t* row = input + i * stride;
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    int64_t j = 0;
    for (; j + 256 <= cols; j += 256) {
      a0 = _mm512_dpbusd_epi32(a0, ones, _mm512_loadu_si512(row + j));
      a1 = _mm512_dpbusd_epi32(a1, ones, _mm512_loadu_si512(row + j + 64));
      a2 = _mm512_dpbusd_epi32(a2, ones, _mm512_loadu_si512(row + j + 128));
      a3 = _mm512_dpbusd_epi32(a3, ones, _mm512_loadu_si512(row + j + 192));
    }
    for (; j + 64 <= cols; j += 64) a0 = _mm512_dpbusd_epi32(a0, ones, _mm512_loadu_si512(row + j));
    if (j < cols) {
      const __mmask64 tail = _bzhi_u64(~0ull, static_cast<unsigned>(cols - j));
      a1 = _mm512_dpbusd_epi32(a1, ones, _mm512_maskz_loadu_epi8(tail, row + j));
    }
    out[i] = sum_epi32(_mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)));
  }
}

__attribute__((target("avx512f,avx512dq,bmi2")))
void hand_rowsum_f32_avx512(const float* input, int64_t rows, int64_t cols, int64_t stride, float* out) {
  for (int64_t i = 0; i < rows; ++i) {
    const float* row = input + i * stride;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int64_t j = 0;
    for (; j + 64 <= cols; j += 64) {
      a0 = _mm512_add_ps(a0, _mm512_loadu_ps(row + j));
      a1 = _mm512_add_ps(a1, _mm512_loadu_ps(row + j + 16));
      a2 = _mm512_add_ps(a2, _mm512_loadu_ps(row + j + 32));
      a3 = _mm512_add_ps(a3, _mm512_loadu_ps(row + j + 48));
    }
    for (; j + 16 <= cols; j += 16) a0 = _mm512_add_ps(a0, _mm512_loadu_ps(row + j));
    if (j < cols) {
      const __mmask16 tail = static_cast<__mmask16>(_bzhi_u32(0xFFFF, static_cast<unsigned>(cols - j)));
      a1 = _mm512_add_ps(a1, _mm512_maskz_loadu_ps(tail, row + j));
    }
    out[i] = sum_ps512(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
  }
}

__attribute__((target("avx2")))
void hand_rowsum_f32_avx2(const float* input, int64_t rows, int64_t cols, int64_t stride, float* out) {
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int64_t i = 0; i < rows; ++i) {
    const float* row = input + i * stride;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int64_t j = 0;
    for (; j + 32 <= cols; j += 32) {
      a0 = _mm256_add_ps(a0, _mm256_loadu_ps(row + j));
      a1 = _mm256_add_ps(a1, _mm256_loadu_ps(row + j + 8));
      a2 = _mm256_add_ps(a2, _mm256_loadu_ps(row + j + 16));
      a3 = _mm256_add_ps(a3, _mm256_loadu_ps(row + j + 24));
    }
    for (; j + 8 <= cols; j += 8) a0 = _mm256_add_ps(a0, _mm256_loadu_ps(row + j));
    if (j < cols) {
      const __m256i tail = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(cols - j)), iota);
      a1 = _mm256_add_ps(a1, _mm256_maskload_ps(row + j, tail));
    }
    out[i] = sum_ps256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
  }
}

bool hand_has_avx512_vnni() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("bmi2");
}

bool hand_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

}  // namespace simdgen_bench
