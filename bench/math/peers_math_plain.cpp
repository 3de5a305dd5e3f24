// SPDX-License-Identifier: Apache-2.0
// y[i] = std::exp(x[i]) and std::log as a user writes them, compiled once per build in
// bench/math/CMakeLists.txt (clang++-19 and g++-12 at -O3 -march=native; and with -ffast-math,
// which lets g++-12 -fopenmp-simd and clang++-19 -fveclib=libmvec call glibc's libmvec). The
// build checks with objdump which functions each object calls (check_calls.cmake).
#include <cmath>
#include <cstdint>

#include "peer_suffix.h"  // PEER(name): name_<build>
#include "peers_math.h"

namespace simdgen_bench_math {

void PEER(plain_exp_f32)(const float* __restrict x, int64_t n, float* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}
void PEER(plain_log_f32)(const float* __restrict x, int64_t n, float* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::log(x[i]);
}
void PEER(plain_exp_f64)(const double* __restrict x, int64_t n, double* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}
void PEER(plain_log_f64)(const double* __restrict x, int64_t n, double* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::log(x[i]);
}

}  // namespace simdgen_bench_math
