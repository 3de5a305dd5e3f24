// SPDX-License-Identifier: Apache-2.0
// The plain loop of specs/map_norm_floor_f32.json (bench_map.cpp), built by clang++-19 and g++-12
// at -O3 -march=native -ffp-contract=off (a multiply and an add, as the spec), and again with
// -fno-math-errno: sqrtf sets errno for a negative argument, which keeps the loop scalar unless
// the user gives that flag.
#pragma once

#include <cstdint>

// X(suffix): every build of peers_map_plain_math.cpp. Keep in sync with CMakeLists.txt.
#define SIMDGEN_MAP_PLAIN_MATH_PEER_BUILDS(X) \
  X(clang19)                                  \
  X(gcc12)                                    \
  X(clang19_nomatherrno)                      \
  X(gcc12_nomatherrno)

namespace simdgen_bench {
#define SIMDGEN_DECLARE_MAP_PLAIN_MATH(suffix)                                                 \
  void plain_norm_floor_f32_##suffix(const float* x, const float* y, int64_t n, float* norm, \
                                     float* cell);
SIMDGEN_MAP_PLAIN_MATH_PEER_BUILDS(SIMDGEN_DECLARE_MAP_PLAIN_MATH)
#undef SIMDGEN_DECLARE_MAP_PLAIN_MATH
}  // namespace simdgen_bench
