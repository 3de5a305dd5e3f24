// SPDX-License-Identifier: Apache-2.0
// exec.pack_ahead: the functions a contraction spec gets for an operand with "pack": "ahead"
// (plan/pack_ahead.h), used as a caller uses them: pack the caller's tensor once, then call the
// kernel with the copy. The kernels themselves run on every variant and emulated CPU in
// exec.<name>/* (their packed operand is just another layout there); this test covers the pack
// functions (plain C, the same on every target) and the whole flow against scalar references
// written from the caller's layout: PyTorch OIHW weights (conv_oihw_packed_f32) and a
// transposed B with a padded leading dimension (matmul_bt_packed_f32), and a batched f64 product
// whose packed operand keeps a batch dim, a runtime stride and a stride named by another dim's
// extent (pack_batched_f64).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "conv_oihw_packed_f32.h"
#include "matmul_bt_packed_f32.h"
#include "pack_batched_f64.h"  // tests/exec/pack_ahead/, generated at build time

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// Where the copy holds element c of the vector dim, the other dims' elements at dense offset
// `rest` of `others`: copies of 32-bit elements come in blocks of 64 along the vector dim, of
// 64-bit ones in blocks of 32 (docs/spec.md), each block [the other dims][block].
int64_t in_block(int64_t c, int64_t rest, int64_t others, int64_t block) { return (c / block * others + rest) * block + c % block; }
int64_t whole_blocks(int64_t n, int64_t block) { return (n + block - 1) / block * block; }

// |got - want| within (terms + 2) float roundings of the sum of the magnitudes (`mag`).
void check_close(float got, double want, double mag, int64_t terms) {
  const double tol = double(terms + 2) * std::ldexp(1.0, -23) * (mag + 1e-30);
  REQUIRE(std::fabs(double(got) - want) <= tol);
}

TEST_CASE("pack_ahead: conv weights from OIHW to [ky][kx][ci][co], then the convolution") {
  std::mt19937 rng(7);
  for (int64_t co : {1, 5, 16, 17, 40, 67})
    for (int64_t ci : {1, 3, 8}) {
      CAPTURE(co);
      CAPTURE(ci);
      const int64_t elements = conv_oihw_packed_f32_weight_packed_elements(co, ci);
      REQUIRE(elements == 9 * ci * whole_blocks(co, 64));
      const std::vector<float> weight = random_floats(size_t(co * ci * 9), rng);
      std::vector<float> packed(size_t(elements) + 1, kNaN);  // one past: must stay untouched
      conv_oihw_packed_f32_pack_weight(weight.data(), co, ci, packed.data());
      for (int64_t ky = 0; ky < 3; ++ky)
        for (int64_t kx = 0; kx < 3; ++kx)
          for (int64_t c = 0; c < ci; ++c)
            for (int64_t o = 0; o < whole_blocks(co, 64); ++o) {
              const float want = o < co ? weight[size_t(((o * ci + c) * 3 + ky) * 3 + kx)] : 0.0f;  // the last block's padding: zeros
              REQUIRE(packed[size_t(in_block(o, (ky * 3 + kx) * ci + c, 9 * ci, 64))] == want);
            }
      REQUIRE(std::isnan(packed.back()));

      // The convolution from the packed weights, against one written from OIHW.
      const int64_t batch = 2, height = 3, width = 7;
      const int64_t row_stride = (width + 2) * ci + 5, image_stride = (height + 2) * row_stride + 3;
      std::vector<float> input(size_t(batch * image_stride), kNaN);  // padding stays NaN
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t y = 0; y < height + 2; ++y)
          for (int64_t x = 0; x < (width + 2) * ci; ++x) input[size_t(n * image_stride + y * row_stride + x)] = random_floats(1, rng)[0];
      const std::vector<float> bias = random_floats(size_t(co), rng);
      std::vector<float> out(size_t(batch * height * width * co), kNaN);
      conv_oihw_packed_f32(packed.data(), input.data(), bias.data(), batch, height, width, co, ci, image_stride, row_stride, out.data());
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t y = 0; y < height; ++y)
          for (int64_t x = 0; x < width; ++x)
            for (int64_t o = 0; o < co; ++o) {
              double sum = bias[size_t(o)], mag = std::fabs(bias[size_t(o)]);
              for (int64_t c = 0; c < ci; ++c)
                for (int64_t ky = 0; ky < 3; ++ky)
                  for (int64_t kx = 0; kx < 3; ++kx) {
                    const double p = double(weight[size_t(((o * ci + c) * 3 + ky) * 3 + kx)]) *
                                     input[size_t(n * image_stride + (y + ky) * row_stride + (x + kx) * ci + c)];
                    sum += p;
                    mag += std::fabs(p);
                  }
              const float got = out[size_t(((n * height + y) * width + x) * co + o)];
              if (sum <= 0) {
                REQUIRE(got <= float(std::ldexp(mag, -18)));  // relu: 0, or a rounding above a sum near 0
                REQUIRE(got >= 0.0f);
              } else {
                check_close(got, sum, mag, 9 * ci);
              }
            }
    }
}

TEST_CASE("pack_ahead: a transposed B with a padded leading dimension, then the matmul") {
  std::mt19937 rng(11);
  for (int64_t n : {1, 15, 16, 33, 70})
    for (int64_t k : {1, 7, 64, 129}) {
      CAPTURE(n);
      CAPTURE(k);
      const int64_t ldb = k + 3;
      std::vector<float> bt(size_t(n * ldb), kNaN);  // the padding is NaN: a read of it shows
      for (int64_t j = 0; j < n; ++j)
        for (int64_t q = 0; q < k; ++q) bt[size_t(j * ldb + q)] = random_floats(1, rng)[0];
      const int64_t elements = matmul_bt_packed_f32_bt_packed_elements(n, k);
      REQUIRE(elements == whole_blocks(n, 64) * k);
      std::vector<float> packed(size_t(elements) + 1, kNaN);
      matmul_bt_packed_f32_pack_bt(bt.data(), n, k, ldb, packed.data());
      for (int64_t q = 0; q < k; ++q)
        for (int64_t j = 0; j < whole_blocks(n, 64); ++j) REQUIRE(packed[size_t(in_block(j, q, k, 64))] == (j < n ? bt[size_t(j * ldb + q)] : 0.0f));
      REQUIRE(std::isnan(packed.back()));

      for (int64_t m : {1, 6, 13}) {
        CAPTURE(m);
        const int64_t lda = k + 1, ldc = n + 2;
        const std::vector<float> a = random_floats(size_t(m * lda), rng), bias = random_floats(size_t(n), rng);
        std::vector<float> c(size_t(m * ldc), kNaN);
        matmul_bt_packed_f32(a.data(), packed.data(), bias.data(), m, n, k, lda, ldc, c.data());
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            double sum = bias[size_t(j)], mag = std::fabs(bias[size_t(j)]);
            for (int64_t q = 0; q < k; ++q) {
              const double p = double(a[size_t(i * lda + q)]) * bt[size_t(j * ldb + q)];
              sum += p;
              mag += std::fabs(p);
            }
            check_close(c[size_t(i * ldc + j)], sum, mag, k);
          }
          for (int64_t j = n; j < ldc; ++j) REQUIRE(std::isnan(c[size_t(i * ldc + j)]));  // row padding untouched
        }
      }
    }
}

TEST_CASE("pack_ahead: a batch dim in the copy, a runtime stride and a stride named by another extent") {
  std::mt19937 rng(13);
  for (int64_t batch : {1, 3})
    for (int64_t m : {2, 5, 40})
      for (int64_t n : {1, 9, 20, 37})
        for (int64_t kk : {1, 6}) {
          CAPTURE(batch);
          CAPTURE(m);
          CAPTURE(n);
          CAPTURE(kk);
          // w[j][b][k] with strides [m, ldw, 1]: consecutive j are m elements apart, which may be
          // less than a j's span (the entries overlap: reading them is allowed); what the strides
          // do not reach stays NaN.
          const int64_t ldw = kk + 2;
          std::vector<double> w(size_t((n - 1) * m + (batch - 1) * ldw + kk), std::nan(""));
          std::uniform_real_distribution<double> u(-1, 1);
          for (int64_t j = 0; j < n; ++j)
            for (int64_t b = 0; b < batch; ++b)
              for (int64_t q = 0; q < kk; ++q) w[size_t(j * m + b * ldw + q)] = u(rng);
          const int64_t elements = pack_batched_f64_w_packed_elements(batch, n, kk);
          REQUIRE(elements == batch * whole_blocks(n, 32) * kk);
          std::vector<double> packed(size_t(elements) + 1, std::nan(""));
          pack_batched_f64_pack_w(w.data(), batch, m, n, kk, ldw, packed.data());
          for (int64_t b = 0; b < batch; ++b)
            for (int64_t q = 0; q < kk; ++q)
              for (int64_t j = 0; j < whole_blocks(n, 32); ++j)
                REQUIRE(packed[size_t(in_block(j, b * kk + q, batch * kk, 32))] == (j < n ? w[size_t(j * m + b * ldw + q)] : 0.0));
          REQUIRE(std::isnan(packed.back()));

          std::vector<double> a(size_t(batch * m * kk)), c(size_t(batch * m * n), std::nan(""));
          for (double& x : a) x = u(rng);
          pack_batched_f64(a.data(), packed.data(), batch, m, n, kk, c.data());
          for (int64_t b = 0; b < batch; ++b)
            for (int64_t i = 0; i < m; ++i)
              for (int64_t j = 0; j < n; ++j) {
                double sum = 0, mag = 0;
                for (int64_t q = 0; q < kk; ++q) {
                  const double p = a[size_t((b * m + i) * kk + q)] * w[size_t(j * m + b * ldw + q)];
                  sum += p;
                  mag += std::fabs(p);
                }
                REQUIRE(std::fabs(c[size_t((b * m + i) * n + j)] - sum) <= double(kk + 2) * std::ldexp(1.0, -52) * (mag + 1e-300));
              }
        }
}

TEST_CASE("pack_ahead: empty extents pack nothing") {
  REQUIRE(conv_oihw_packed_f32_weight_packed_elements(0, 5) == 0);
  REQUIRE(matmul_bt_packed_f32_bt_packed_elements(4, 0) == 0);
  float sentinel = kNaN;
  conv_oihw_packed_f32_pack_weight(nullptr, 0, 5, &sentinel);
  matmul_bt_packed_f32_pack_bt(nullptr, 4, 0, 1, &sentinel);
  REQUIRE(std::isnan(sentinel));
}

}  // namespace
