// SPDX-License-Identifier: Apache-2.0
// Eigen peers: the idiomatic expression over a strided row-major map. This is
// the only CMake-compiled file with -march=native; it exposes nothing but
// plain functions so no AVX-512 inline code leaks into other translation
// units through the linker's choice of COMDAT copies.
#include "peers_eigen.h"

#include <Eigen/Core>

namespace simdgen_bench {
namespace {
template <class T>
using RowMajorMap =
    Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
               Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T>
using OutMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
}  // namespace

void eigen_rowsum_i8(const int8_t* in, int64_t rows, int64_t cols,
                     int64_t stride, int32_t* out) {
  const RowMajorMap<int8_t> a(in, rows, cols, Eigen::OuterStride<>(stride));
  OutMap<int32_t>(out, rows).noalias() = a.cast<int32_t>().rowwise().sum();
}

void eigen_rowsum_f32(const float* in, int64_t rows, int64_t cols,
                      int64_t stride, float* out) {
  const RowMajorMap<float> a(in, rows, cols, Eigen::OuterStride<>(stride));
  OutMap<float>(out, rows).noalias() = a.rowwise().sum();
}

void eigen_rowmax_f32(const float* in, int64_t rows, int64_t cols,
                      int64_t stride, float* out) {
  const RowMajorMap<float> a(in, rows, cols, Eigen::OuterStride<>(stride));
  OutMap<float>(out, rows).noalias() = a.rowwise().maxCoeff();
}

}  // namespace simdgen_bench
