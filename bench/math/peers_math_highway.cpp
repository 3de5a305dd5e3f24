// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3's hwy/contrib/math Exp and Log (documented: Exp 1 ULP, Log 4 ULP), static dispatch:
// compiled -O3 -march=native (bench/math/CMakeLists.txt), so HWY_NAMESPACE is the best target
// the compiler flags allow (highway_target() names it). Whole vectors, then one masked tail.
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "peers_math.h"

namespace simdgen_bench_math {

namespace {
namespace hn = hwy::HWY_NAMESPACE;

template <class T, class F>
void apply(const T* x, int64_t n, T* y, F f) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(f(d, hn::LoadU(d, x + i)), d, y + i);
  if (i < n) {
    const auto m = hn::FirstN(d, static_cast<size_t>(n - i));
    hn::BlendedStore(f(d, hn::MaskedLoad(m, d, x + i)), m, d, y + i);
  }
}

struct Exp {
  template <class D, class V>
  V operator()(D d, V v) const { return hn::Exp(d, v); }
};
struct Log {
  template <class D, class V>
  V operator()(D d, V v) const { return hn::Log(d, v); }
};
}  // namespace

void hwy_exp_f32(const float* x, int64_t n, float* y) { apply(x, n, y, Exp{}); }
void hwy_log_f32(const float* x, int64_t n, float* y) { apply(x, n, y, Log{}); }
void hwy_exp_f64(const double* x, int64_t n, double* y) { apply(x, n, y, Exp{}); }
void hwy_log_f64(const double* x, int64_t n, double* y) { apply(x, n, y, Log{}); }

const char* highway_target() { return hwy::TargetName(HWY_STATIC_TARGET); }

}  // namespace simdgen_bench_math
