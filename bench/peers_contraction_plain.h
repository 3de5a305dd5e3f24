// SPDX-License-Identifier: Apache-2.0
// The plain loop nests of the contraction benchmark, compiled outside CMake's
// compiler by clang++-19 -O3 -march=native (simdgen_plain_peer in
// CMakeLists.txt); one symbol per build, as in peers_plain.h. Their output is
// also the reference every other implementation is checked against.
#pragma once

#include <cstdint>

// X(suffix): every build of peers_contraction_plain.cpp. Keep in sync with CMakeLists.txt.
#define SIMDGEN_CONTRACTION_PLAIN_PEER_BUILDS(X) X(clang19)

namespace simdgen_bench {
#define SIMDGEN_DECLARE_CONTRACTION_PLAIN(suffix)                                               \
  /* c[m][n] = a[m][k] * b[k][n], row-major with leading dimensions; i-k-j order. */           \
  void plain_matmul_f32_##suffix(const float* a, const float* b, int64_t m, int64_t n,         \
                                 int64_t k, int64_t lda, int64_t ldb, int64_t ldc, float* c);  \
  /* The seed convolution (SeedConv in peers_contraction.h), channel loop innermost. */        \
  void plain_seed_conv_##suffix(const float* filter, const float* input, const float* bias,   \
                                float* output);                                                 \
  /* The seed convolution with "same" padding: the input is H x W, reads outside are skipped. */ \
  void plain_seed_conv_same_##suffix(const float* filter, const float* input, const float* bias, \
                                     float* output);
SIMDGEN_CONTRACTION_PLAIN_PEER_BUILDS(SIMDGEN_DECLARE_CONTRACTION_PLAIN)
#undef SIMDGEN_DECLARE_CONTRACTION_PLAIN
}  // namespace simdgen_bench
