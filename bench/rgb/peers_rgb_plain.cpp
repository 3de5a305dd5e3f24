// SPDX-License-Identifier: Apache-2.0
// The loop a user writes, compiled once per compiler (bench/rgb/CMakeLists.txt).
#include "peers_rgb.h"

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
