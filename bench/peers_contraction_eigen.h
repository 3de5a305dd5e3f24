// SPDX-License-Identifier: Apache-2.0
// Eigen 3.4's matrix product, built with -O3 -march=native in its own file
// (see peers_contraction_eigen.cpp).
#pragma once

#include <cstdint>

namespace simdgen_bench {
// c[m][n] = a[m][k] * b[k][n], row-major with leading dimensions.
void eigen_matmul_f32(const float* a, const float* b, int64_t m, int64_t n, int64_t k,
                      int64_t lda, int64_t ldb, int64_t ldc, float* c);
}  // namespace simdgen_bench
