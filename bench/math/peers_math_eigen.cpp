// SPDX-License-Identifier: Apache-2.0
// Eigen 3.4's array exp() and log() (its own vectorised polynomials), compiled -O3 -march=native
// (bench/math/CMakeLists.txt): Eigen vectorises for the ISA it is compiled for only.
#include <Eigen/Core>

#include "peers_math.h"

namespace simdgen_bench_math {

namespace {
template <class T>
using In = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using Out = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
}  // namespace

void eigen_exp_f32(const float* x, int64_t n, float* y) { Out<float>(y, n) = In<float>(x, n).exp(); }
void eigen_log_f32(const float* x, int64_t n, float* y) { Out<float>(y, n) = In<float>(x, n).log(); }
void eigen_exp_f64(const double* x, int64_t n, double* y) { Out<double>(y, n) = In<double>(x, n).exp(); }
void eigen_log_f64(const double* x, int64_t n, double* y) { Out<double>(y, n) = In<double>(x, n).log(); }

}  // namespace simdgen_bench_math
