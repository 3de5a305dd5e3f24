// SPDX-License-Identifier: Apache-2.0
// Eigen 3.4's transpose, built with -O3 -march=native in its own file (see
// peers_transpose_eigen.cpp).
#pragma once

#include <cstdint>

namespace simdgen_bench {
// out (cols x rows, row stride ldo) = in (rows x cols, row stride lda) transposed.
void eigen_transpose_f32(const float* in, int64_t rows, int64_t cols, int64_t lda, int64_t ldo,
                         float* out);
}  // namespace simdgen_bench
