// SPDX-License-Identifier: Apache-2.0
// Library argmax peers, the idiomatic one-liners: Eigen 3.4's
// Map<const Matrix<T, Dynamic, 1>>(a, n).maxCoeff(&index) and
// std::max_element(a, a + n). Both return the first maximal element (strict
// comparisons), as the generated kernels do.
//
// This file alone (with peers_eigen.cpp) is built with -O3 -march=native (see
// CMakeLists.txt). It exposes plain functions only; the library templates it
// instantiates (Eigen's, std::max_element<const T*>) are inlined here and
// used by no other translation unit, so no -march=native COMDAT copy can be
// picked by the linker for code compiled without it.
#include "peers_arg_eigen.h"

#include <algorithm>
#include <limits>

#include <Eigen/Core>

namespace simdgen_bench {
namespace {

template <class T>
void empty_result(T* value, int64_t* index) {
  *value = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  *index = -1;
}

template <class T>
void eigen_argmax(const T* a, int64_t n, T* value, int64_t* index) {
  if (n <= 0) return empty_result(value, index);  // maxCoeff asserts n > 0
  Eigen::Index at = 0;
  *value = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>(a, n).maxCoeff(&at);
  *index = static_cast<int64_t>(at);
}

template <class T>
void std_argmax(const T* a, int64_t n, T* value, int64_t* index) {
  if (n <= 0) return empty_result(value, index);
  const T* it = std::max_element(a, a + n);
  *value = *it;
  *index = it - a;
}

}  // namespace

void eigen_argmax_i32(const int32_t* a, int64_t n, int32_t* value, int64_t* index) {
  eigen_argmax(a, n, value, index);
}
void eigen_argmax_f32(const float* a, int64_t n, float* value, int64_t* index) {
  eigen_argmax(a, n, value, index);
}
void std_max_element_i32(const int32_t* a, int64_t n, int32_t* value, int64_t* index) {
  std_argmax(a, n, value, index);
}
void std_max_element_f32(const float* a, int64_t n, float* value, int64_t* index) {
  std_argmax(a, n, value, index);
}

}  // namespace simdgen_bench
