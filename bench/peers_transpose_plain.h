// SPDX-License-Identifier: Apache-2.0
// The plain transpose loop for bench_transpose.cpp, compiled outside CMake's
// compiler by clang++-19 and g++-12 with -O3 -march=native (see
// CMakeLists.txt); one symbol per build, as in peers_plain.h.
#pragma once

#include <cstdint>

// X(suffix): every build of peers_transpose_plain.cpp. Keep in sync with CMakeLists.txt.
#define SIMDGEN_TRANSPOSE_PLAIN_PEER_BUILDS(X) \
  X(clang19)                                   \
  X(gcc12)

namespace simdgen_bench {
#define SIMDGEN_DECLARE_TRANSPOSE_PLAIN(suffix)                                       \
  void plain_transpose_f32_##suffix(const float* in, int64_t rows, int64_t cols,      \
                                    int64_t lda, int64_t ldo, float* out);            \
  void plain_transpose_u8_##suffix(const uint8_t* in, int64_t rows, int64_t cols,     \
                                   int64_t lda, int64_t ldo, uint8_t* out);           \
  void plain_transpose_u16_##suffix(const uint16_t* in, int64_t rows, int64_t cols,   \
                                    int64_t lda, int64_t ldo, uint16_t* out);           \
  void plain_transpose_in_place_f32_##suffix(float* m, int64_t n);
SIMDGEN_TRANSPOSE_PLAIN_PEER_BUILDS(SIMDGEN_DECLARE_TRANSPOSE_PLAIN)
#undef SIMDGEN_DECLARE_TRANSPOSE_PLAIN
}  // namespace simdgen_bench
