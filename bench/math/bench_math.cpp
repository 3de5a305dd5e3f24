// SPDX-License-Identifier: Apache-2.0
// The math benchmark (simdgen_bench_math): every peer of peers_math.h over the same arrays,
// y[i] = f(x[i]), n = 4096 and 1,000,000. Names: "math/<fn>_<dtype>/<impl>/<n>".
//
// Inputs: per function (math_inputs.h: exp uniform in [-80, 80], log 2^u with u uniform in
// [-100, 100], sin uniform in [-100, 100], ...). One input array per (function, dtype, n) and one
// output array per (dtype, n), 64-byte aligned, shared by every peer. Each case is checked once
// against the C library in a wider type (tests/math/math_reference.h) before it is timed
// (ulp_error.h): a result off by more than kWiringLimit (a relative error of 2^-7), or a wrong
// special value, aborts the run (a peer wired to the wrong function); the largest error on these
// inputs is reported as the counter max_ulp_inputs. The accuracy over all inputs is
// simdgen_bench_math_accuracy's.
//
// Counters: elements_per_ns (elements per cycle: divide by the clock row's ghz, as
// make_math_table.py does).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "math_inputs.h"
#include "math_reference.h"
#include "peers_math.h"
#include "ulp_error.h"

namespace simdgen_bench_math {

namespace {

// A relative error of 2^-7 (f32: 2^16 ULP; f64: 2^45): far beyond any peer's approximation error
// on these inputs (the worst, Eigen's f32 logistic, is about 6,000 ULP: an absolute error of about
// 1e-7 where sigmoid is 1e-4), and met by every wrong function somewhere in its input range.
template <class T>
constexpr double kWiringLimit = double(uint64_t(1) << (std::numeric_limits<T>::digits - 8));

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
T* alloc(int64_t n) {
  const size_t bytes = (static_cast<size_t>(n) * sizeof(T) + 63) / 64 * 64;
  return static_cast<T*>(std::aligned_alloc(64, bytes));
}

// The inputs of `fn` for n elements of T (math_inputs.h), made once and shared.
template <class T>
const T* input(const std::string& fn, int64_t n) {
  static std::map<std::pair<std::string, int64_t>, std::unique_ptr<T, FreeDeleter>> cache;
  auto& slot = cache[{fn, n}];
  if (slot) return slot.get();
  slot.reset(alloc<T>(n));
  T* p = slot.get();
  const Range& r = sizeof(T) == 4 ? inputs_of(fn).bench_f32 : inputs_of(fn).bench_f64;
  std::mt19937_64 rng(0x6d617468u + static_cast<uint64_t>(n) * 4 + std::hash<std::string>{}(fn) * 2 + sizeof(T));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int64_t i = 0; i < n; ++i) {
    do p[i] = static_cast<T>(draw(r, u(rng)));
    while (r.open_lo && !(p[i] > T(r.lo)));
  }
  return p;
}

template <class T>
T* output(int64_t n) {
  static std::map<int64_t, std::unique_ptr<T, FreeDeleter>> cache;
  auto& slot = cache[n];
  if (!slot) slot.reset(alloc<T>(n));
  return slot.get();
}

// The reference in a wider type: double for f32, long double for f64.
template <class T>
auto reference(const std::string& fn, T x) {
  using R = std::conditional_t<sizeof(T) == 4, double, long double>;
  return simdgen_math_test::math_reference<R>(fn, R(x));
}

template <class T>
void add_case(const Peer& p, int64_t n) {
  const std::string name = "math/" + p.fn + (p.f64 ? "_f64/" : "_f32/") + p.impl + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), [p, n, name](benchmark::State& state) {
    using Fn = void (*)(const T*, int64_t, T*);
    const Fn fn = reinterpret_cast<Fn>(p.call);
    const T* x = input<T>(p.fn, n);
    T* y = output<T>(n);
    std::fill_n(y, n, T(-12345));
    fn(x, n, y);
    double worst = 0;
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double e = simdgen_math_test::ulp_error(y[i], reference(p.fn, x[i]));
      if (e > worst) worst = e, at = i;
    }
    if (!(worst <= kWiringLimit<T>)) {
      std::fprintf(stderr,
                   "simdgen_bench_math: WRONG RESULT from %s at element %lld: %s(%.17g) = %.17g, %.3g ULP "
                   "off. Refusing to benchmark it.\n",
                   name.c_str(), static_cast<long long>(at), p.fn.c_str(), double(x[at]), double(y[at]), worst);
      std::abort();
    }
    for (auto _ : state) {
      fn(x, n, y);
      benchmark::ClobberMemory();
    }
    state.counters["n"] = static_cast<double>(n);
    state.counters["max_ulp_inputs"] = worst;
    state.counters["elements_per_ns"] =
        benchmark::Counter(static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  });
}

}  // namespace

void register_math_benchmarks() {
  for (const auto& [key, value] : context()) benchmark::AddCustomContext(key, value);
  for (const Peer& p : all_peers()) {
    if (!p.supported) {
      std::fprintf(stderr, "simdgen_bench_math: %s (%s %s) skipped: this CPU lacks its ISA\n", p.impl.c_str(),
                   p.fn.c_str(), p.f64 ? "f64" : "f32");
      continue;
    }
    for (int64_t n : {int64_t{4096}, int64_t{1000000}}) {
      if (p.f64)
        add_case<double>(p, n);
      else
        add_case<float>(p, n);
    }
  }
}

}  // namespace simdgen_bench_math
