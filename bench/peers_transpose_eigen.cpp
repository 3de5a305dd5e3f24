// SPDX-License-Identifier: Apache-2.0
// The idiomatic Eigen transpose: row-major maps with outer strides, out =
// in.transpose(). Like peers_eigen.cpp, the only code here built with
// -march=native, and it exports a plain function only (no COMDAT leaks).
#include "peers_transpose_eigen.h"

#include <Eigen/Core>

namespace simdgen_bench {
namespace {
using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

void eigen_transpose_f32(const float* in, int64_t rows, int64_t cols, int64_t lda, int64_t ldo,
                         float* out) {
  const Eigen::Map<const Mat, Eigen::Unaligned, Eigen::OuterStride<>> a(
      in, rows, cols, Eigen::OuterStride<>(lda));
  Eigen::Map<Mat, Eigen::Unaligned, Eigen::OuterStride<>> b(out, cols, rows,
                                                             Eigen::OuterStride<>(ldo));
  b.noalias() = a.transpose();  // noalias: distinct buffers, no temporary
}

}  // namespace simdgen_bench
