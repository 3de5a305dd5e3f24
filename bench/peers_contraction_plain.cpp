// SPDX-License-Identifier: Apache-2.0
// The loops a user would write for the two contractions, left to the compiler
// (-O3 -march=native, see CMakeLists.txt). Both put the output's contiguous
// dimension innermost, so that the compiler vectorises it without reassociating
// a float sum (which it may not do without -ffast-math): i-k-j for the matmul,
// n-y-x-rz-ry-rx-co for the convolution. No templates or library calls: see
// peers_plain.cpp for why (COMDAT functions built with -march=native).
#include "peers_contraction_plain.h"

#include "peer_suffix.h"  // PEER(name): name_<build>

namespace simdgen_bench {

void PEER(plain_matmul_f32)(const float* __restrict a, const float* __restrict b, int64_t m,
                            int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                            float* __restrict c) {
  for (int64_t i = 0; i < m; ++i) {
    float* __restrict ci = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) ci[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float aip = a[i * lda + p];
      const float* __restrict bp = b + p * ldb;
      for (int64_t j = 0; j < n; ++j) ci[j] += aip * bp[j];
    }
  }
}

// The seed's sizes, spelled out so that the compiler sees constant extents
// (the generated kernel is static too). Keep in sync with SeedConv.
namespace {
constexpr int64_t N = 5, CI = 128, CO = 128, W = 100, H = 80;
}  // namespace

void PEER(plain_seed_conv)(const float* __restrict filter, const float* __restrict input,
                           const float* __restrict bias, float* __restrict output) {
  for (int64_t n = 0; n < N; ++n)
    for (int64_t y = 0; y < H; ++y)
      for (int64_t x = 0; x < W; ++x) {
        float* __restrict out = output + ((n * H + y) * W + x) * CO;
        for (int64_t co = 0; co < CO; ++co) out[co] = bias[co];
        for (int64_t rz = 0; rz < 3; ++rz)
          for (int64_t ry = 0; ry < 3; ++ry)
            for (int64_t rx = 0; rx < CI; ++rx) {
              const float in = input[((n * (H + 2) + y + rz) * (W + 2) + x + ry) * CI + rx];
              const float* __restrict f = filter + ((rx * 3 + rz) * 3 + ry) * CO;
              for (int64_t co = 0; co < CO; ++co) out[co] += f[co] * in;
            }
        for (int64_t co = 0; co < CO; ++co) out[co] = out[co] > 0.0f ? out[co] : 0.0f;
      }
}

// The loop a person writes for "same" padding: the window's rows and columns outside the image
// skipped (the same sums as over a zero-padded copy: every skipped product is +-0).
void PEER(plain_seed_conv_same)(const float* __restrict filter, const float* __restrict input,
                                const float* __restrict bias, float* __restrict output) {
  for (int64_t n = 0; n < N; ++n)
    for (int64_t y = 0; y < H; ++y)
      for (int64_t x = 0; x < W; ++x) {
        float* __restrict out = output + ((n * H + y) * W + x) * CO;
        for (int64_t co = 0; co < CO; ++co) out[co] = bias[co];
        for (int64_t rz = 0; rz < 3; ++rz) {
          const int64_t iy = y + rz - 1;
          if (iy < 0 || iy >= H) continue;
          for (int64_t ry = 0; ry < 3; ++ry) {
            const int64_t ix = x + ry - 1;
            if (ix < 0 || ix >= W) continue;
            for (int64_t rx = 0; rx < CI; ++rx) {
              const float in = input[((n * H + iy) * W + ix) * CI + rx];
              const float* __restrict f = filter + ((rx * 3 + rz) * 3 + ry) * CO;
              for (int64_t co = 0; co < CO; ++co) out[co] += f[co] * in;
            }
          }
        }
        for (int64_t co = 0; co < CO; ++co) out[co] = out[co] > 0.0f ? out[co] : 0.0f;
      }
}

}  // namespace simdgen_bench
