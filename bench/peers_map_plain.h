// SPDX-License-Identifier: Apache-2.0
// Plain element-wise loops for the map benchmarks (bench_map.cpp), compiled
// outside CMake's compiler by clang++-19 and g++-12 with -O3 -march=native
// (see CMakeLists.txt); one symbol set per build, as in peers_plain.h.
#pragma once

#include <cstdint>

// X(suffix): every build of peers_map_plain.cpp. Keep in sync with CMakeLists.txt.
#define SIMDGEN_MAP_PLAIN_PEER_BUILDS(X) \
  X(clang19)                             \
  X(gcc12)

namespace simdgen_bench {
#define SIMDGEN_DECLARE_MAP_PLAIN(suffix)                                          \
  void plain_times_two_##suffix(const float* a, int64_t n, float* b);              \
  void plain_axpby_fma_##suffix(const float* x, const float* y, int64_t n,         \
                                float alpha, float beta, float* out);              \
  void plain_absdiff_i16_##suffix(const int16_t* a, const int16_t* b, int64_t n,   \
                                  int16_t* out);                                   \
  void plain_u8_to_f32_fma_##suffix(const uint8_t* px, int64_t n, float scale,     \
                                    float bias, float* y);                         \
  void plain_f32_to_u8_nearest_##suffix(const float* x, int64_t n, float scale,    \
                                        uint8_t* q);                                   \
  void plain_bits_u8_i8_##suffix(const uint8_t* a, const int8_t* s, int64_t n,      \
                                 uint8_t* swapped, uint8_t* mixed, int8_t* halved,  \
                                 int8_t* odd);                                      \
  void plain_blend_u8_##suffix(const uint8_t* a, const uint8_t* b, int64_t n,       \
                               uint8_t* lighten, uint8_t* darken, uint8_t* mean);
SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_DECLARE_MAP_PLAIN)
#undef SIMDGEN_DECLARE_MAP_PLAIN
}  // namespace simdgen_bench
