// SPDX-License-Identifier: Apache-2.0
// Hand-written transpose networks (see peers_transpose_hand.h). The stages are
// written as fixed-count loops that GCC unrolls completely (#pragma GCC
// unroll), so every vector stays in a register, as in the generated code.
#include "peers_transpose_hand.h"

#include <immintrin.h>

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
// GCC 12's AVX-512 headers self-initialise _mm512_undefined_*() values (GCC bug
// 105593, fixed in GCC 13), which -W(maybe-)uninitialized reports in every caller.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#define SIMDGEN_AVX512 __attribute__((target("avx512f")))
#define SIMDGEN_INLINE inline __attribute__((always_inline))

namespace simdgen_bench {
namespace {

// 16 rows of 16 floats (lda apart) to 16 rows (ldo apart): the 64-shuffle
// network of seed 004 (MLIR's shuffle_16x16), lane contents as in its summary.
SIMDGEN_AVX512 SIMDGEN_INLINE void tile16_shuf64(const float* in, int64_t lda, float* out,
                                                 int64_t ldo) {
  __m512 r[16], t[16];
#pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) r[k] = _mm512_loadu_ps(in + k * lda);
  // 1: interleave 32-bit lanes of row pairs: t0 = 0 16 1 17 4 20 5 21 ...
#pragma GCC unroll 8
  for (int k = 0; k < 16; k += 2) {
    t[k] = _mm512_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm512_unpackhi_ps(r[k], r[k + 1]);
  }
  // 2: interleave 64-bit lanes: r0 = 0 16 32 48 4 20 36 52 ... (4x4 per 128-bit lane)
#pragma GCC unroll 4
  for (int k = 0; k < 16; k += 4) {
    const __m512d a = _mm512_castps_pd(t[k]), b = _mm512_castps_pd(t[k + 1]);
    const __m512d c = _mm512_castps_pd(t[k + 2]), d = _mm512_castps_pd(t[k + 3]);
    r[k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    r[k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    r[k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    r[k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  // 3: gather 128-bit blocks 0,2 / 1,3 of register pairs 4 apart.
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    const int a = (k & 3) + (k & 4) * 2;  // 0 1 2 3 8 9 10 11
    t[a] = _mm512_shuffle_f32x4(r[a], r[a + 4], 0x88);
    t[a + 4] = _mm512_shuffle_f32x4(r[a], r[a + 4], 0xDD);
  }
  // 4: the same on registers 8 apart: output rows k and k + 8.
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    _mm512_storeu_ps(out + k * ldo, _mm512_shuffle_f32x4(t[k], t[k + 8], 0x88));
    _mm512_storeu_ps(out + (k + 8) * ldo, _mm512_shuffle_f32x4(t[k], t[k + 8], 0xDD));
  }
}

}  // namespace

SIMDGEN_AVX512 void hand_transpose_16x16_f32_shuf64(const float* in, float* out) {
  tile16_shuf64(in, 16, out, 16);
}

// Register 4g + k holds 8 columns (from cb) of row rb + k in its low half and of
// row rb + k + 4 in its high half (g: rb = 8 * (g & 1), cb = 8 * (g >> 1)). The
// two 128-bit stages below then leave, in register 4g + m, 128-bit lane L =
// column cb + m + 4 * (L & 1) of rows rb + 4 * (L >> 1) .. + 3, and one
// shuffle_f32x4 of registers g and g + 1 completes an output row.
__attribute__((target("avx512f,avx512dq"))) void hand_transpose_16x16_f32_shuf48(const float* in,
                                                                                 float* out) {
  __m512 r[16], t[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
    const int g = i >> 2, k = i & 3, rb = 8 * (g & 1), cb = 8 * (g >> 1);
    r[i] = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(in + (rb + k) * 16 + cb)),
                              _mm256_loadu_ps(in + (rb + k + 4) * 16 + cb), 1);
  }
  // 1: interleave 32-bit lanes of row pairs.
#pragma GCC unroll 8
  for (int k = 0; k < 16; k += 2) {
    t[k] = _mm512_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm512_unpackhi_ps(r[k], r[k + 1]);
  }
  // 2: 64-bit pairs: a 4x4 transpose inside every 128-bit lane.
#pragma GCC unroll 4
  for (int k = 0; k < 16; k += 4) {
    r[k] = _mm512_shuffle_ps(t[k], t[k + 2], 0x44);
    r[k + 1] = _mm512_shuffle_ps(t[k], t[k + 2], 0xEE);
    r[k + 2] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0x44);
    r[k + 3] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
  }
  // 3: rows 0-7 of a column from register 8h + m, rows 8-15 from 8h + m + 4.
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    const int a = (k & 3) + (k & 4) * 2;  // 0 1 2 3 8 9 10 11: also the output row (column)
    _mm512_storeu_ps(out + a * 16, _mm512_shuffle_f32x4(r[a], r[a + 4], 0x88));
    _mm512_storeu_ps(out + (a + 4) * 16, _mm512_shuffle_f32x4(r[a], r[a + 4], 0xDD));
  }
}

__attribute__((target("avx2"))) void hand_transpose_8x8_f32_avx2(const float* in, float* out) {
  __m256 r[8], t[8];
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(in + k * 8);
#pragma GCC unroll 4
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  // r[4q + m], 128-bit lane L: column m + 4L of rows 4q .. 4q + 3.
#pragma GCC unroll 2
  for (int k = 0; k < 8; k += 4) {
    r[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
    r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
    r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
    r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
  }
#pragma GCC unroll 4
  for (int m = 0; m < 4; ++m) {
    _mm256_storeu_ps(out + m * 8, _mm256_permute2f128_ps(r[m], r[m + 4], 0x20));
    _mm256_storeu_ps(out + (m + 4) * 8, _mm256_permute2f128_ps(r[m], r[m + 4], 0x31));
  }
}

SIMDGEN_AVX512 void hand_transpose_f32_tiled(const float* in, int64_t rows, int64_t cols,
                                             int64_t lda, int64_t ldo, float* out) {
  int64_t i = 0;
  for (; i + 16 <= rows; i += 16) {
    int64_t j = 0;
    for (; j + 16 <= cols; j += 16) tile16_shuf64(in + i * lda + j, lda, out + j * ldo + i, ldo);
    for (; j < cols; ++j)  // right edge
      for (int64_t r = i; r < i + 16; ++r) out[j * ldo + r] = in[r * lda + j];
  }
  for (; i < rows; ++i)  // bottom edge
    for (int64_t j = 0; j < cols; ++j) out[j * ldo + i] = in[i * lda + j];
}

}  // namespace simdgen_bench
