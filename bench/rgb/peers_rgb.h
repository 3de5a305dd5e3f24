// SPDX-License-Identifier: Apache-2.0
// RGB bytes -> three f32 planes (each byte times a scale): the peers of bench_rgb.cpp.
#pragma once
#include <cstdint>

// The plain loop, built by clang++-19 and g++-12 -O3 -march=native (peers_rgb_plain.cpp).
void rgb_plain_clang19(const uint8_t* rgb, int64_t n, float scale, float* r, float* g, float* b);
void rgb_plain_gcc12(const uint8_t* rgb, int64_t n, float scale, float* r, float* g, float* b);
// Highway 1.0.3: LoadInterleaved3, then each byte vector promoted to four f32 vectors (static
// dispatch: the target -march=native gives).
void rgb_hwy(const uint8_t* rgb, int64_t n, float scale, float* r, float* g, float* b);

// RGB bytes -> HSV's value (the largest channel), one byte per pixel.
void value_plain_clang19(const uint8_t* rgb, int64_t n, uint8_t* value);
void value_plain_gcc12(const uint8_t* rgb, int64_t n, uint8_t* value);
void value_hwy(const uint8_t* rgb, int64_t n, uint8_t* value);

// Three f32 planes -> interleaved RGB bytes (scaled, clamped to 0..255, rounded to nearest even).
void planar_plain_clang19(const float* r, const float* g, const float* b, int64_t n, float scale, uint8_t* rgb);
void planar_plain_gcc12(const float* r, const float* g, const float* b, int64_t n, float scale, uint8_t* rgb);
// RGBA bytes: the alpha byte inverted in place (255 - a), the colours untouched.
void alpha_plain_clang19(uint8_t* rgba, int64_t n);
void alpha_plain_gcc12(uint8_t* rgba, int64_t n);
