// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3 map peers (peers_map_highway.cpp): runtime-dispatched by
// Highway, and the same functions pinned to its AVX3_DL target.
#pragma once

#include <cstdint>

namespace simdgen_bench {
using MapF32x1 = void (*)(const float* a, int64_t n, float* b);
using MapAxpby = void (*)(const float* x, const float* y, int64_t n, float alpha,
                          float beta, float* out);
using MapI16x2 = void (*)(const int16_t* a, const int16_t* b, int64_t n, int16_t* out);
using MapU8ToF32 = void (*)(const uint8_t* px, int64_t n, float scale, float bias, float* y);
using MapF32ToU8 = void (*)(const float* x, int64_t n, float scale, uint8_t* q);
// specs/map_bits_u8_i8.json: two inputs, four outputs of bitwise operators and shifts.
using MapBitsU8I8 = void (*)(const uint8_t* a, const int8_t* s, int64_t n, uint8_t* swapped,
                             uint8_t* mixed, int8_t* halved, int8_t* odd);

// specs/map_norm_floor_f32.json: norm = sqrt(x * x + y * y), cell = floor(x * 0.25).
using MapNormFloor = void (*)(const float* x, const float* y, int64_t n, float* norm, float* cell);

void hwy_times_two(const float* a, int64_t n, float* b);
void hwy_axpby_fma(const float* x, const float* y, int64_t n, float alpha, float beta,
                   float* out);
void hwy_absdiff_i16(const int16_t* a, const int16_t* b, int64_t n, int16_t* out);
void hwy_u8_to_f32_fma(const uint8_t* px, int64_t n, float scale, float bias, float* y);
void hwy_f32_to_u8_nearest(const float* x, int64_t n, float scale, uint8_t* q);
void hwy_bits_u8_i8(const uint8_t* a, const int8_t* s, int64_t n, uint8_t* swapped, uint8_t* mixed,
                    int8_t* halved, int8_t* odd);
// specs/map_blend_u8.json: add_sat, sub_sat and avg_round of two byte arrays.
using MapBlendU8 = void (*)(const uint8_t* a, const uint8_t* b, int64_t n, uint8_t* lighten, uint8_t* darken,
                            uint8_t* mean);
void hwy_blend_u8(const uint8_t* a, const uint8_t* b, int64_t n, uint8_t* lighten, uint8_t* darken, uint8_t* mean);
void hwy_norm_floor_f32(const float* x, const float* y, int64_t n, float* norm, float* cell);

// Highway's AVX3_DL (Zen 4 / Ice Lake, 512-bit) functions called directly,
// without HWY_DYNAMIC_DISPATCH (null where that target is not compiled).
struct HighwayMapAvx3 {
  MapF32x1 times_two = nullptr;
  MapAxpby axpby_fma = nullptr;
  MapI16x2 absdiff_i16 = nullptr;
  MapU8ToF32 u8_to_f32_fma = nullptr;
  MapF32ToU8 f32_to_u8_nearest = nullptr;
  MapBitsU8I8 bits_u8_i8 = nullptr;
  MapNormFloor norm_floor_f32 = nullptr;
  MapBlendU8 blend_u8 = nullptr;
};
HighwayMapAvx3 hwy_map_avx3_dl();
}  // namespace simdgen_bench
