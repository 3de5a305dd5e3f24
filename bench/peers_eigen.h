// SPDX-License-Identifier: Apache-2.0
// Eigen 3.4 peers (peers_eigen.cpp, built with -O3 -march=native).
#pragma once

#include <cstdint>

namespace simdgen_bench {
void eigen_rowsum_i8(const int8_t*, int64_t, int64_t, int64_t, int32_t*);
void eigen_rowsum_f32(const float*, int64_t, int64_t, int64_t, float*);
void eigen_rowmax_f32(const float*, int64_t, int64_t, int64_t, float*);
}  // namespace simdgen_bench
