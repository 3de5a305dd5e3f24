// SPDX-License-Identifier: Apache-2.0
// The element-wise loops a user would write, left to the compiler's
// vectoriser (-O3 -march=native). __restrict states what the generated
// kernels' contract states (outputs do not overlap inputs), so the compiler
// needs no runtime overlap check. No templates or library calls: see
// peers_plain.cpp for why (COMDAT functions built with -march=native).
#include "peers_map_plain.h"

#include "peer_suffix.h"  // PEER(name): name_<build>

namespace simdgen_bench {

void PEER(plain_times_two)(const float* __restrict a, int64_t n,
                           float* __restrict b) {
  for (int64_t i = 0; i < n; ++i) b[i] = a[i] * 2.0f;
}

// fma(alpha, x, beta * y): one rounding for the add, as the spec says; the
// builtin is vectorised to vfmadd by both compilers (no errno for fmaf).
void PEER(plain_axpby_fma)(const float* __restrict x, const float* __restrict y,
                           int64_t n, float alpha, float beta,
                           float* __restrict out) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = __builtin_fmaf(alpha, x[i], beta * y[i]);
}

// |a - b| wrapping in 16 bits: select(a > b, a - b, b - a).
void PEER(plain_absdiff_i16)(const int16_t* __restrict a,
                             const int16_t* __restrict b, int64_t n,
                             int16_t* __restrict out) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = a[i] > b[i] ? static_cast<int16_t>(a[i] - b[i])
                         : static_cast<int16_t>(b[i] - a[i]);
}

// Bytes to floats, one rounding: fma((float)px, scale, bias).
void PEER(plain_u8_to_f32_fma)(const uint8_t* __restrict px, int64_t n, float scale,
                               float bias, float* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = __builtin_fmaf(static_cast<float>(px[i]), scale, bias);
}

// x * scale rounded to nearest (ties to even: nearbyint in the default
// rounding mode), saturated to 0..255, NaN to 0 (!(v >= 0) is true for NaN).
void PEER(plain_f32_to_u8_nearest)(const float* __restrict x, int64_t n, float scale,
                                   uint8_t* __restrict q) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = __builtin_nearbyintf(x[i] * scale);
    q[i] = !(v >= 0.0f) ? 0 : v >= 255.0f ? 255 : static_cast<uint8_t>(v);
  }
}

// specs/map_bits_u8_i8.json as C: the shifts of int8_t are C's (arithmetic on the promoted int),
// s << 6 written as s * 64 (a left shift of a negative int is undefined before C++20), every
// result truncated to its 8-bit type.
void PEER(plain_bits_u8_i8)(const uint8_t* __restrict a, const int8_t* __restrict s, int64_t n,
                            uint8_t* __restrict swapped, uint8_t* __restrict mixed,
                            int8_t* __restrict halved, int8_t* __restrict odd) {
  for (int64_t i = 0; i < n; ++i) {
    swapped[i] = static_cast<uint8_t>((a[i] >> 4) | (a[i] << 4));
    mixed[i] = static_cast<uint8_t>(~a[i] ^ ((a[i] >> 3) & 0x5A));
    halved[i] = static_cast<int8_t>((s[i] >> 1) + (s[i] >> 7) - s[i] * 64);
    odd[i] = (s[i] & 1) == 1 ? static_cast<int8_t>(s[i] >> 2) : static_cast<int8_t>(~s[i] | 0x40);
  }
}

// specs/map_blend_u8.json as C: the saturating sum and difference and the rounded mean of two
// bytes, in int arithmetic (the idioms both compilers turn into vpaddusb, vpsubusb and vpavgb).
void PEER(plain_blend_u8)(const uint8_t* __restrict a, const uint8_t* __restrict b, int64_t n,
                          uint8_t* __restrict lighten, uint8_t* __restrict darken, uint8_t* __restrict mean) {
  for (int64_t i = 0; i < n; ++i) {
    const int s = a[i] + b[i], d = a[i] - b[i];
    lighten[i] = static_cast<uint8_t>(s > 255 ? 255 : s);
    darken[i] = static_cast<uint8_t>(d < 0 ? 0 : d);
    mean[i] = static_cast<uint8_t>((s + 1) >> 1);
  }
}

}  // namespace simdgen_bench
