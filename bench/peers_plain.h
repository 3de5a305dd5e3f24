// SPDX-License-Identifier: Apache-2.0
// Plain scalar loops, compiled outside CMake's compiler by clang++-19 and
// g++-12 (see CMakeLists.txt); one symbol set per (compiler, flags) build.
#pragma once

#include <cstdint>

// X(suffix): every build of peers_plain.cpp. Keep in sync with CMakeLists.txt.
#define SIMDGEN_PLAIN_PEER_BUILDS(X) \
  X(clang19)                         \
  X(gcc12)                           \
  X(clang19_fastmath)                \
  X(gcc12_fastmath)

namespace simdgen_bench {
#define SIMDGEN_DECLARE_PLAIN(suffix)                                        \
  void plain_rowsum_i8_##suffix(const int8_t* input, int64_t rows,           \
                                int64_t cols, int64_t stride, int32_t* out); \
  void plain_rowsum_f32_##suffix(const float* input, int64_t rows,           \
                                 int64_t cols, int64_t stride, float* out);  \
  void plain_rowmax_f32_##suffix(const float* input, int64_t rows,           \
                                 int64_t cols, int64_t stride, float* out);
SIMDGEN_PLAIN_PEER_BUILDS(SIMDGEN_DECLARE_PLAIN)
#undef SIMDGEN_DECLARE_PLAIN
}  // namespace simdgen_bench
