// SPDX-License-Identifier: Apache-2.0
// Plain argmax loops, compiled outside CMake's compiler by clang++-19 and
// g++-12 at -O3 -march=native (see CMakeLists.txt); one symbol set per build.
#pragma once

#include <cstdint>

// X(suffix): every build of peers_arg_plain.cpp. Keep in sync with the
// simdgen_arg_plain_peer() calls in CMakeLists.txt.
#define SIMDGEN_ARG_PLAIN_PEER_BUILDS(X) \
  X(clang19)                             \
  X(gcc12)

namespace simdgen_bench {
// Same contract as the generated argmax_<T>: the maximum and the first index
// of it; an empty input gives (lowest value, -1).
#define SIMDGEN_DECLARE_ARG_PLAIN(suffix)                                   \
  void plain_argmax_i32_##suffix(const int32_t* input, int64_t n,           \
                                 int32_t* value, int64_t* index);           \
  void plain_argmax_f32_##suffix(const float* input, int64_t n, float* value, \
                                 int64_t* index);
SIMDGEN_ARG_PLAIN_PEER_BUILDS(SIMDGEN_DECLARE_ARG_PLAIN)
#undef SIMDGEN_DECLARE_ARG_PLAIN
}  // namespace simdgen_bench
