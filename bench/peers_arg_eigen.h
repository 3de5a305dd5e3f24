// SPDX-License-Identifier: Apache-2.0
// Library argmax peers (peers_arg_eigen.cpp, built with -O3 -march=native by
// the project's compiler): Eigen's maxCoeff(&index) and std::max_element.
// Same contract as the generated argmax_<T>: the maximum and its first index;
// an empty input gives (lowest value, -1).
#pragma once

#include <cstdint>

namespace simdgen_bench {
void eigen_argmax_i32(const int32_t* input, int64_t n, int32_t* value, int64_t* index);
void eigen_argmax_f32(const float* input, int64_t n, float* value, int64_t* index);
void std_max_element_i32(const int32_t* input, int64_t n, int32_t* value, int64_t* index);
void std_max_element_f32(const float* input, int64_t n, float* value, int64_t* index);
}  // namespace simdgen_bench
