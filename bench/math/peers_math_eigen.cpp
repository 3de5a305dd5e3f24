// SPDX-License-Identifier: Apache-2.0
// Eigen 3.4's array functions (its own vectorised polynomials where it has them), compiled -O3
// -march=native (bench/math/CMakeLists.txt): Eigen vectorises for the ISA it is compiled for only.
// sigmoid is Eigen's .logistic(); erf comes from unsupported/Eigen/SpecialFunctions. Eigen 3.4 has
// no exp2 and no gelu; its f64 tanh is the scalar std::tanh per element (not vectorised).
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include "peers_math.h"

// X(fn, Eigen's array method).
#define EIGEN_MATH_FUNCTIONS(X) \
  X(exp, exp)                   \
  X(expm1, expm1)               \
  X(log, log)                   \
  X(log2, log2)                 \
  X(log1p, log1p)               \
  X(tanh, tanh)                 \
  X(sigmoid, logistic)          \
  X(sin, sin)                   \
  X(cos, cos)                   \
  X(erf, erf)

namespace simdgen_bench_math {

namespace {
template <class T>
using In = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using Out = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

#define EIGEN_DEFINE(fn, method)                                \
  template <class T>                                            \
  void eigen_##fn(const T* x, int64_t n, T* y) {                \
    Out<T>(y, n) = In<T>(x, n).method();                        \
  }
EIGEN_MATH_FUNCTIONS(EIGEN_DEFINE)
#undef EIGEN_DEFINE
}  // namespace

// Both dtypes; peers_math.cpp keeps those simdgen offers. Eigen documents no error bound (0).
std::span<const MathFn> eigen_math_functions() {
#define EIGEN_ENTRY(fn, method) {#fn, "f32", erase(&eigen_##fn<float>), "", 0, 0}, {#fn, "f64", erase(&eigen_##fn<double>), "", 0, 0},
  static const MathFn table[] = {EIGEN_MATH_FUNCTIONS(EIGEN_ENTRY)};
#undef EIGEN_ENTRY
  return table;
}

}  // namespace simdgen_bench_math
