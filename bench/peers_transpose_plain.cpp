// SPDX-License-Identifier: Apache-2.0
// The transpose a user would write, left to the compiler (-O3 -march=native):
// runtime extents and strides, __restrict for the generated kernels' contract
// (the output does not overlap the input). No templates or library calls: see
// peers_plain.cpp for why (COMDAT functions built with -march=native).
#include "peers_transpose_plain.h"

#include "peer_suffix.h"  // PEER(name): name_<build>

namespace simdgen_bench {

void PEER(plain_transpose_f32)(const float* __restrict in, int64_t rows, int64_t cols,
                               int64_t lda, int64_t ldo, float* __restrict out) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) out[c * ldo + r] = in[r * lda + c];
}

void PEER(plain_transpose_u8)(const uint8_t* __restrict in, int64_t rows, int64_t cols,
                              int64_t lda, int64_t ldo, uint8_t* __restrict out) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) out[c * ldo + r] = in[r * lda + c];
}

void PEER(plain_transpose_u16)(const uint16_t* __restrict in, int64_t rows, int64_t cols,
                               int64_t lda, int64_t ldo, uint16_t* __restrict out) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) out[c * ldo + r] = in[r * lda + c];
}

}  // namespace simdgen_bench

namespace simdgen_bench {

// In place: the upper triangle swapped with the lower one.
void PEER(plain_transpose_in_place_f32)(float* m, int64_t n) {
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = r + 1; c < n; ++c) {
      const float x = m[r * n + c];
      m[r * n + c] = m[c * n + r];
      m[c * n + r] = x;
    }
}

}  // namespace simdgen_bench
