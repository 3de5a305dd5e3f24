// SPDX-License-Identifier: Apache-2.0
// The idiomatic Eigen product: row-major maps with outer strides,
// c.noalias() = a * b (noalias: no temporary for the result). Like
// peers_eigen.cpp, the only code here built with -march=native (Eigen
// vectorises for the ISA it is compiled for), exporting a plain function only.
// EIGEN_DONT_PARALLELIZE: one thread, like every peer, should the file ever be
// built with -fopenmp.
#define EIGEN_DONT_PARALLELIZE
#include "peers_contraction_eigen.h"

#include <Eigen/Core>

namespace simdgen_bench {
namespace {
using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const Mat, Eigen::Unaligned, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<Mat, Eigen::Unaligned, Eigen::OuterStride<>>;
}  // namespace

void eigen_matmul_f32(const float* a, const float* b, int64_t m, int64_t n, int64_t k,
                      int64_t lda, int64_t ldb, int64_t ldc, float* c) {
  const ConstMap am(a, m, k, Eigen::OuterStride<>(lda));
  const ConstMap bm(b, k, n, Eigen::OuterStride<>(ldb));
  MutMap cm(c, m, n, Eigen::OuterStride<>(ldc));
  cm.noalias() = am * bm;
}

}  // namespace simdgen_bench
