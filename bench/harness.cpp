// SPDX-License-Identifier: Apache-2.0
// Test data, reference results, the once-before-timing correctness check and
// the registration of every queued (kernel, implementation, size) case.
#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>

namespace simdgen_bench {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// One random matrix per (element type, shape), shared by all implementations
// so that every row of the results table reads exactly the same bytes.
template <class In>
struct MatrixData {
  int64_t rows = 0, cols = 0, stride = 0;
  std::unique_ptr<In, FreeDeleter> storage;
  std::vector<double> ref_sum, ref_max, sum_abs;
  const In* data() const { return storage.get(); }
};

template <class In>
const MatrixData<In>& matrix(Shape s) {
  static std::map<std::pair<int64_t, int64_t>, MatrixData<In>> cache;
  auto [it, fresh] = cache.try_emplace({s.rows, s.cols});
  MatrixData<In>& m = it->second;
  if (!fresh) return m;

  m.rows = s.rows;
  m.cols = s.cols;
  m.stride = s.cols;  // dense rows, as in the brief
  const size_t n = static_cast<size_t>(m.rows * m.stride);
  // 64-byte aligned base; 64 bytes of slack past the end so that a peer whose
  // tail handling reads a whole vector (Highway's AVX2 MaskedLoad for bytes
  // does) cannot fault. Row starts are only aligned when cols*sizeof(In) is.
  const size_t bytes = (n * sizeof(In) + 63) / 64 * 64 + 64;
  m.storage.reset(static_cast<In*>(std::aligned_alloc(64, bytes)));
  std::fill_n(reinterpret_cast<unsigned char*>(m.storage.get()), bytes, 0);

  std::mt19937_64 rng(0x5eed0000u + static_cast<uint64_t>(s.rows * 4096 + s.cols));
  In* p = m.storage.get();
  if constexpr (std::is_integral_v<In>) {
    std::uniform_int_distribution<int> dist(std::numeric_limits<In>::min(),
                                            std::numeric_limits<In>::max());
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<In>(dist(rng));
  } else {
    // No NaN/Inf in the data: -ffast-math and Eigen peers make no promise
    // about them, and we only compare speed on inputs where all agree.
    std::uniform_real_distribution<In> dist(In(-1), In(1));
    for (size_t i = 0; i < n; ++i) p[i] = dist(rng);
  }

  for (int64_t i = 0; i < m.rows; ++i) {
    double sum = 0, abs = 0, mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < m.cols; ++j) {
      const double x = static_cast<double>(p[i * m.stride + j]);
      sum += x;
      abs += std::fabs(x);
      mx = std::max(mx, x);
    }
    m.ref_sum.push_back(sum);
    m.ref_max.push_back(mx);
    m.sum_abs.push_back(abs);
  }
  return m;
}

[[noreturn]] void fail(const std::string& name, int64_t row, double got,
                       double want) {
  std::fprintf(stderr,
               "simdgen_bench: WRONG RESULT from %s at row %lld: got %.9g, "
               "expected %.9g. Refusing to benchmark incorrect code.\n",
               name.c_str(), static_cast<long long>(row), got, want);
  std::abort();
}

// Integers must match exactly; float max must match exactly (max is
// order-independent); float sums may differ by reassociation, so allow
// 1e-5 relative to sum|x| (far above rounding noise for <= 512 terms, far
// below the effect of a dropped or duplicated element).
template <class In, class Out>
void verify(const std::string& name, RowKernel<In, Out> fn, Op op, Shape s) {
  const MatrixData<In>& m = matrix<In>(s);
  // Poison the output so that a row the kernel never writes is caught.
  std::vector<Out> out(m.rows, std::is_integral_v<Out>
                                   ? Out(0x7f7f7f7f)
                                   : std::numeric_limits<Out>::quiet_NaN());
  fn(m.data(), m.rows, m.cols, m.stride, out.data());
  for (int64_t i = 0; i < m.rows; ++i) {
    const double got = static_cast<double>(out[i]);
    const double want = op == Op::kSum ? m.ref_sum[i] : m.ref_max[i];
    const bool exact = std::is_integral_v<Out> || op == Op::kMax;
    const double tol = exact ? 0.0 : 1e-5 * m.sum_abs[i];
    if (!(std::fabs(got - want) <= tol)) fail(name, i, got, want);
  }
}

template <class In, class Out>
void run(benchmark::State& state, RowKernel<In, Out> fn, Shape s) {
  const MatrixData<In>& m = matrix<In>(s);
  std::vector<Out> out(m.rows);
  for (auto _ : state) {
    fn(m.data(), m.rows, m.cols, m.stride, out.data());
    benchmark::ClobberMemory();  // the results count as used every iteration
  }
  benchmark::DoNotOptimize(out.data());
  set_bandwidth_counters(state,
                         static_cast<double>(m.rows * m.cols * sizeof(In)));
}

struct Case {
  std::string kernel, impl;
  Shape shape;
  std::function<void(const std::string&)> verify;
  std::function<void(benchmark::State&)> run;
};

std::vector<Case>& queue() {
  static std::vector<Case> q;
  return q;
}

std::string shape_name(Shape s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.cols);
}

}  // namespace

void set_bandwidth_counters(benchmark::State& state, double bytes_per_iter) {
  using benchmark::Counter;
  // Rate counters divide by the measured (CPU) time: bytes*1e-9 per second
  // is bytes per ns, bytes/Hz per second is bytes per (nominal) cycle.
  state.counters["bytes_per_ns"] =
      Counter(bytes_per_iter * 1e-9, Counter::kIsIterationInvariantRate);
  const double hz = benchmark::CPUInfo::Get().cycles_per_second;
  state.counters["bytes_per_cycle"] =
      Counter(bytes_per_iter / hz, Counter::kIsIterationInvariantRate);
}

void add_i8_sum(const std::string& kernel, const std::string& impl,
                RowKernelI8 fn, const std::vector<Shape>& shapes) {
  for (Shape s : shapes)
    queue().push_back(
        {kernel, impl, s,
         [=](const std::string& n) { verify<int8_t, int32_t>(n, fn, Op::kSum, s); },
         [=](benchmark::State& st) { run<int8_t, int32_t>(st, fn, s); }});
}

void add_f32(const std::string& kernel, Op op, const std::string& impl,
             RowKernelF32 fn, const std::vector<Shape>& shapes) {
  for (Shape s : shapes)
    queue().push_back(
        {kernel, impl, s,
         [=](const std::string& n) { verify<float, float>(n, fn, op, s); },
         [=](benchmark::State& st) { run<float, float>(st, fn, s); }});
}

void register_queued_benchmarks() {
  // Group the output by kernel then size (in first-queued order) so that all
  // competitors for one problem sit next to each other in the console.
  std::map<std::string, size_t> kernel_rank;
  std::map<std::pair<int64_t, int64_t>, size_t> shape_rank;
  for (const Case& c : queue()) {
    kernel_rank.try_emplace(c.kernel, kernel_rank.size());
    shape_rank.try_emplace({c.shape.rows, c.shape.cols}, shape_rank.size());
  }
  // Index tie-break instead of std::stable_sort, whose libstdc++ 12 helper
  // clang flags as deprecated in C++20.
  std::vector<size_t> order(queue().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](size_t i) {
    const Case& c = queue()[i];
    return std::tuple(kernel_rank[c.kernel],
                      shape_rank[{c.shape.rows, c.shape.cols}], i);
  };
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return key(a) < key(b); });
  for (size_t i : order) {
    const Case& c = queue()[i];
    const std::string name = c.kernel + "/" + c.impl + "/" + shape_name(c.shape);
    // Verified on the first call, before its first timed loop: this way
    // --benchmark_filter also selects what is checked, so one broken kernel
    // can be filtered out without hiding the others.
    auto verified = std::make_shared<bool>(false);
    benchmark::RegisterBenchmark(
        name.c_str(), [c, name, verified](benchmark::State& state) {
          if (!*verified) {
            c.verify(name);
            *verified = true;
          }
          c.run(state);
        });
  }
}

}  // namespace simdgen_bench
