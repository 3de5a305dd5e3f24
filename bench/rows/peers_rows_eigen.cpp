// SPDX-License-Identifier: Apache-2.0
// Eigen 3.4 expressions over Maps of the benchmark's arrays, as an Eigen user writes each case:
// one expression per pass (a.dot(b), (a - b).squaredNorm(), a.dot(b) / (a.norm() * b.norm()), the
// matrix-vector product, row by row for the row kernels). Compiled -O3 -march=native (Eigen
// vectorises for the ISA it is compiled for: AVX-512 here); exports plain functions only.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>

#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {

using Eigen::Dynamic;
using VecF = Eigen::Map<const Eigen::VectorXf>;
using ArrF = Eigen::Map<const Eigen::ArrayXf>;
using OutArrF = Eigen::Map<Eigen::ArrayXf>;
using MatF = Eigen::Map<const Eigen::Matrix<float, Dynamic, Dynamic, Eigen::RowMajor>>;

float dot(const float* a, const float* b, int64_t n) { return VecF(a, n).dot(VecF(b, n)); }

float l2sq(const float* a, const float* b, int64_t n) { return (VecF(a, n) - VecF(b, n)).squaredNorm(); }

// Three passes: Eigen evaluates each reduction on its own.
float cosine(const float* a, const float* b, int64_t n) {
  const VecF va(a, n), vb(b, n);
  return va.dot(vb) / (va.norm() * vb.norm());
}

int32_t dot_i8(const int8_t* a, const int8_t* b, int64_t n) {
  using VecI8 = Eigen::Map<const Eigen::Matrix<int8_t, Dynamic, 1>>;
  return VecI8(a, n).cast<int32_t>().dot(VecI8(b, n).cast<int32_t>());
}

void query_dot(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  Eigen::Map<Eigen::VectorXf>(out, rows).noalias() = MatF(x, rows, cols) * VecF(q, cols);
}

void query_l2sq(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  const Eigen::Map<const Eigen::RowVectorXf> qr(q, cols);
  Eigen::Map<Eigen::VectorXf>(out, rows).noalias() = (MatF(x, rows, cols).rowwise() - qr).rowwise().squaredNorm();
}

void softmax(const float* x, int64_t rows, int64_t cols, float* y) {
  for (int64_t r = 0; r < rows; ++r) {
    const ArrF xr(x + r * cols, cols);
    OutArrF yr(y + r * cols, cols);
    const float m = xr.maxCoeff();
    yr = (xr - m).exp();
    yr /= yr.sum();
  }
}

void rmsnorm(const float* x, const float* g, int64_t rows, int64_t cols, float eps, float* y) {
  const ArrF ga(g, cols);
  for (int64_t r = 0; r < rows; ++r) {
    const ArrF xr(x + r * cols, cols);
    const float scale = 1.0f / std::sqrt(xr.square().mean() + eps);
    OutArrF(y + r * cols, cols) = xr * scale * ga;
  }
}

void layernorm(const float* x, const float* g, const float* b, int64_t rows, int64_t cols, float eps, float* y) {
  const ArrF ga(g, cols), ba(b, cols);
  for (int64_t r = 0; r < rows; ++r) {
    const ArrF xr(x + r * cols, cols);
    const float mean = xr.mean();
    const float var = (xr - mean).square().mean();
    OutArrF(y + r * cols, cols) = (xr - mean) * (1.0f / std::sqrt(var + eps)) * ga + ba;
  }
}

void quantize(const float* x, int64_t rows, int64_t cols, int8_t* q, float* amax) {
  for (int64_t r = 0; r < rows; ++r) {
    const ArrF xr(x + r * cols, cols);
    const float m = xr.abs().maxCoeff();
    Eigen::Map<Eigen::Array<int8_t, Dynamic, 1>>(q + r * cols, cols) = (xr * (127.0f / m)).rint().cast<int8_t>();
    amax[r] = m;
  }
}

}  // namespace

std::span<const RowsFn> eigen_rows_functions() {
  static const RowsFn table[] = {
      {"dot_f32", "eigen", erase(&dot), "", "a.dot(b)"},
      {"l2sq_f32", "eigen", erase(&l2sq), "", "(a - b).squaredNorm()"},
      {"cos_f32", "eigen", erase(&cosine), "", "a.dot(b) / (a.norm() * b.norm()): 3 passes"},
      {"dot_i8", "eigen", erase(&dot_i8), "", "a.cast<int32_t>().dot(b.cast<int32_t>())"},
      {"query_dot_f32", "eigen", erase(&query_dot), "", "X * q (row-major GEMV)"},
      {"query_l2sq_f32", "eigen", erase(&query_l2sq), "", "(X.rowwise() - q).rowwise().squaredNorm()"},
      {"softmax_f32", "eigen", erase(&softmax), "", "per row: maxCoeff; (x - m).exp(); y /= y.sum()"},
      {"rmsnorm_f32", "eigen", erase(&rmsnorm), "", "per row: square().mean(); x * s * g"},
      {"layernorm_f32", "eigen", erase(&layernorm), "", "per row: mean(); (x - mean).square().mean(); normalise"},
      {"quantize_i8", "eigen", erase(&quantize), "", "per row: abs().maxCoeff(); (x * s).rint().cast<int8_t>()"},
  };
  return table;
}

}  // namespace simdgen_bench_rows
