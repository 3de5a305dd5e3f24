// SPDX-License-Identifier: Apache-2.0
// The loop a user writes, compiled once per compiler (bench/rgb/CMakeLists.txt).
#include "peers_rgb.h"

#include <cmath>

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)

void CAT(rgb_plain, PEER_SUFFIX)(const uint8_t* rgb, int64_t n, float scale, float* r, float* g, float* b) {
  for (int64_t i = 0; i < n; ++i) {
    r[i] = (float)rgb[3 * i] * scale;
    g[i] = (float)rgb[3 * i + 1] * scale;
    b[i] = (float)rgb[3 * i + 2] * scale;
  }
}

void CAT(value_plain, PEER_SUFFIX)(const uint8_t* rgb, int64_t n, uint8_t* value) {
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
    const uint8_t m = r > g ? r : g;
    value[i] = m > b ? m : b;
  }
}

static inline uint8_t to_byte(float v) {
  v = v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v;
  return (uint8_t)std::nearbyint(v);
}

void CAT(planar_plain, PEER_SUFFIX)(const float* r, const float* g, const float* b, int64_t n, float scale, uint8_t* rgb) {
  for (int64_t i = 0; i < n; ++i) {
    rgb[3 * i] = to_byte(r[i] * scale);
    rgb[3 * i + 1] = to_byte(g[i] * scale);
    rgb[3 * i + 2] = to_byte(b[i] * scale);
  }
}

void CAT(alpha_plain, PEER_SUFFIX)(uint8_t* rgba, int64_t n) {
  for (int64_t i = 0; i < n; ++i) rgba[4 * i + 3] = (uint8_t)(255 - rgba[4 * i + 3]);
}
