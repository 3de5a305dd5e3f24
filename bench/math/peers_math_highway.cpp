// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3's hwy/contrib/math, static dispatch: compiled -O3 -march=native
// (bench/math/CMakeLists.txt), so HWY_NAMESPACE is the best target the compiler flags allow
// (highway_target() names it). Whole vectors, then one masked tail. 1.0.3 has no Exp2, Erf or
// sigmoid. Its documented ranges are narrower than C's: Sin and Cos |x| <= 39000, Log1p x >= 0,
// Exp x <= 104 (f32; f64: 706); the accuracy tool measures all inputs anyway.
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "peers_math.h"

// X(fn, Highway's function, documented ULP; math-inl.h's "Max Error"), for f32 and f64 alike.
#define HIGHWAY_MATH_FUNCTIONS(X) \
  X(exp, Exp, 1)                  \
  X(expm1, Expm1, 4)              \
  X(log, Log, 4)                  \
  X(log2, Log2, 2)                \
  X(log1p, Log1p, 2)              \
  X(tanh, Tanh, 4)                \
  X(sin, Sin, 3)                  \
  X(cos, Cos, 3)

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

#define HIGHWAY_DEFINE(fn, Hwy, ulp)                                                                \
  template <class T>                                                                                \
  void hwy_##fn(const T* x, int64_t n, T* y) {                                                      \
    apply(x, n, y, [](auto d, auto v) { return hn::Hwy(d, v); });                                   \
  }
HIGHWAY_MATH_FUNCTIONS(HIGHWAY_DEFINE)
#undef HIGHWAY_DEFINE
}  // namespace

// Both dtypes; peers_math.cpp keeps those simdgen offers (SIMDGEN_BENCH_MATH_FUNCTIONS).
std::span<const MathFn> highway_math_functions() {
#define HIGHWAY_ENTRY(fn, Hwy, ulp) {#fn, "f32", erase(&hwy_##fn<float>), "", ulp, 0},
#define HIGHWAY_ENTRY64(fn, Hwy, ulp) {#fn, "f64", erase(&hwy_##fn<double>), "", ulp, 0},
  static const MathFn table[] = {HIGHWAY_MATH_FUNCTIONS(HIGHWAY_ENTRY) HIGHWAY_MATH_FUNCTIONS(HIGHWAY_ENTRY64)};
#undef HIGHWAY_ENTRY
#undef HIGHWAY_ENTRY64
  return table;
}

const char* highway_target() { return hwy::TargetName(HWY_STATIC_TARGET); }

}  // namespace simdgen_bench_math
