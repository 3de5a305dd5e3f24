// SPDX-License-Identifier: Apache-2.0
// The _parallel() entry points on this machine's cores against their serial kernels and OpenMP
// loops (docs/parallel.md, issue 69): row sums of 8192 x 4096 f32 (memory-bound: the fraction of
// the read bandwidth), a 4096 x 4096 f32 transpose, softmax over 4096 rows of 4096 (exp-bound), a
// 1024^3 f32 matmul split by rows of C.
// simdgen/N: the kernel through a runtime/simdgen_threads.h pool of N threads; openmp_loop/N and
// onednn/N (oneDNN's primitives, SIMDGEN_BENCH_ONEDNN) with OpenMP at N threads; openblas/N and
// blis/N: their pthread builds' sgemm at N threads (skipped where Debian's libopenblas0-pthread or
// libblis4-pthread is not installed).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "par_matmul_f32.h"
#include "par_rowsum_f32.h"
#include "par_softmax_f32.h"
#include "par_transpose_f32.h"
#include "peers_parallel_blas.h"
#include "simdgen_threads.h"
#if SIMDGEN_BENCH_ONEDNN
#include "peers_parallel_onednn.h"
#endif

namespace {

constexpr int64_t kRows = 8192, kCols = 4096, kSide = 4096, kSoftRows = 4096;

std::vector<float> randomFloats(size_t n) {
  std::vector<float> v(n);
  uint32_t s = 12345;
  for (float& x : v) x = float((s = s * 1664525u + 1013904223u) >> 8) * (1.0f / 16777216.0f) - 0.5f;
  return v;
}

simdgen_threads* pool(int threads) {
  static simdgen_threads* pools[9] = {};
  if (!pools[threads]) pools[threads] = simdgen_threads_create(threads);
  return pools[threads];
}

// The kernel serially at 1 thread, its _parallel() entry through a pool of st.range(0) threads.
template <class Serial, class Parallel> void timeThreads(benchmark::State& st, Serial serial, Parallel parallel) {
  const int threads = int(st.range(0));
  const simdgen_runner r = simdgen_threads_runner(pool(threads));
  for (auto _ : st) {
    if (threads == 1) serial();
    else parallel(&r);
  }
}

void counters(benchmark::State& st, double bytes) {
  st.counters["bytes_per_ns"] = benchmark::Counter(bytes * double(st.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// --- row sums -------------------------------------------------------------------------------
void rowsumSimdgen(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kRows * kCols));
  std::vector<float> out(kRows);
  timeThreads(st, [&] { par_rowsum_f32(a.data(), kRows, kCols, out.data()); },
              [&](const simdgen_runner* r) { par_rowsum_f32_parallel(a.data(), kRows, kCols, out.data(), r); });
  benchmark::DoNotOptimize(out.data());
  counters(st, double(kRows * kCols * 4));
}
void rowsumOpenmp(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kRows * kCols));
  std::vector<float> out(kRows);
  const int threads = int(st.range(0));
  for (auto _ : st) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t r = 0; r < kRows; ++r) {
      float s = 0;
#pragma omp simd reduction(+ : s)
      for (int64_t c = 0; c < kCols; ++c) s += a[size_t(r * kCols + c)];
      out[size_t(r)] = s;
    }
    benchmark::DoNotOptimize(out.data());
  }
  counters(st, double(kRows * kCols * 4));
}

// --- transpose ------------------------------------------------------------------------------
void transposeSimdgen(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kSide * kSide));
  std::vector<float> out(size_t(kSide * kSide));
  timeThreads(st, [&] { par_transpose_f32(a.data(), kSide, kSide, kSide, kSide, out.data()); },
              [&](const simdgen_runner* r) { par_transpose_f32_parallel(a.data(), kSide, kSide, kSide, kSide, out.data(), r); });
  benchmark::DoNotOptimize(out.data());
  counters(st, double(kSide * kSide * 8));
}
void transposeOpenmp(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kSide * kSide));
  std::vector<float> out(size_t(kSide * kSide));
  const int threads = int(st.range(0));
  for (auto _ : st) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t rb = 0; rb < kSide; rb += 32)  // 32 x 32 blocks
      for (int64_t cb = 0; cb < kSide; cb += 32)
        for (int64_t r = rb; r < rb + 32; ++r)
          for (int64_t c = cb; c < cb + 32; ++c) out[size_t(c * kSide + r)] = a[size_t(r * kSide + c)];
    benchmark::DoNotOptimize(out.data());
  }
  counters(st, double(kSide * kSide * 8));
}

// --- softmax --------------------------------------------------------------------------------
void softmaxSimdgen(benchmark::State& st) {
  static const std::vector<float> x = randomFloats(size_t(kSoftRows * kCols));
  std::vector<float> y(size_t(kSoftRows * kCols));
  timeThreads(st, [&] { par_softmax_f32(x.data(), kSoftRows, kCols, y.data()); },
              [&](const simdgen_runner* r) { par_softmax_f32_parallel(x.data(), kSoftRows, kCols, y.data(), r); });
  benchmark::DoNotOptimize(y.data());
  counters(st, double(kSoftRows * kCols * 8));
}
void softmaxOpenmp(benchmark::State& st) {
  static const std::vector<float> x = randomFloats(size_t(kSoftRows * kCols));
  std::vector<float> y(size_t(kSoftRows * kCols));
  const int threads = int(st.range(0));
  for (auto _ : st) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t r = 0; r < kSoftRows; ++r) {
      const float* row = &x[size_t(r * kCols)];
      float* out = &y[size_t(r * kCols)];
      float m = -INFINITY, s = 0;
      for (int64_t c = 0; c < kCols; ++c) m = std::fmax(m, row[c]);
      for (int64_t c = 0; c < kCols; ++c) s += (out[c] = std::exp(row[c] - m));
      const float inv = 1 / s;
      for (int64_t c = 0; c < kCols; ++c) out[c] *= inv;
    }
    benchmark::DoNotOptimize(y.data());
  }
  counters(st, double(kSoftRows * kCols * 8));
}

// --- matmul -----------------------------------------------------------------------------------
constexpr int64_t kMm = 1024;
void matmulSimdgen(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kMm * kMm)), b = randomFloats(size_t(kMm * kMm));
  std::vector<float> c(size_t(kMm * kMm));
  timeThreads(st, [&] { par_matmul_f32(a.data(), b.data(), kMm, kMm, kMm, kMm, kMm, kMm, c.data()); },
              [&](const simdgen_runner* r) { par_matmul_f32_parallel(a.data(), b.data(), kMm, kMm, kMm, kMm, kMm, kMm, c.data(), r); });
  benchmark::DoNotOptimize(c.data());
  st.counters["gflops"] = benchmark::Counter(2.0 * kMm * kMm * kMm * double(st.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
void matmulOpenmp(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kMm * kMm)), b = randomFloats(size_t(kMm * kMm));
  std::vector<float> c(size_t(kMm * kMm));
  const int threads = int(st.range(0));
  for (auto _ : st) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < kMm; ++i) {
      float* ci = &c[size_t(i * kMm)];
      for (int64_t j = 0; j < kMm; ++j) ci[j] = 0;
      for (int64_t k = 0; k < kMm; ++k) {
        const float aik = a[size_t(i * kMm + k)];
        const float* bk = &b[size_t(k * kMm)];
        for (int64_t j = 0; j < kMm; ++j) ci[j] += aik * bk[j];
      }
    }
    benchmark::DoNotOptimize(c.data());
  }
  st.counters["gflops"] = benchmark::Counter(2.0 * kMm * kMm * kMm * double(st.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

#if SIMDGEN_BENCH_ONEDNN
// --- oneDNN: each output checked against a scalar reference (in double) before it is timed -------
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "onednn peer: %s differs from the reference\n", what);
    std::abort();
  }
}
bool near(double got, double want, double scale) { return std::fabs(got - want) <= 1e-5 * scale + 1e-30; }

void timeOnednn(benchmark::State& st, const std::function<void()>& fn) {
  omp_set_num_threads(int(st.range(0)));
  for (auto _ : st) fn();
  omp_set_num_threads(omp_get_num_procs());
}

void rowsumOnednn(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kRows * kCols));
  std::vector<float> out(kRows);
  const auto fn = simdgen_bench::onednnRowSums(a.data(), out.data(), kRows, kCols);
  fn();
  for (int64_t r = 0; r < kRows; r += 97) {
    double s = 0, m = 0;
    for (int64_t c = 0; c < kCols; ++c) s += a[size_t(r * kCols + c)], m += std::fabs(a[size_t(r * kCols + c)]);
    require(near(out[size_t(r)], s, m), "a row sum");
  }
  timeOnednn(st, fn);
  benchmark::DoNotOptimize(out.data());
  counters(st, double(kRows * kCols * 4));
}
void transposeOnednn(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kSide * kSide));
  std::vector<float> out(size_t(kSide * kSide));
  const auto fn = simdgen_bench::onednnTranspose(a.data(), out.data(), kSide, kSide);
  fn();
  for (int64_t r = 0; r < kSide; ++r)
    for (int64_t c = 0; c < kSide; ++c) require(out[size_t(c * kSide + r)] == a[size_t(r * kSide + c)], "the transpose");
  timeOnednn(st, fn);
  benchmark::DoNotOptimize(out.data());
  counters(st, double(kSide * kSide * 8));
}
void softmaxOnednn(benchmark::State& st) {
  static const std::vector<float> x = randomFloats(size_t(kSoftRows * kCols));
  std::vector<float> y(size_t(kSoftRows * kCols));
  const auto fn = simdgen_bench::onednnSoftmax(x.data(), y.data(), kSoftRows, kCols);
  fn();
  for (int64_t r = 0; r < kSoftRows; r += 101) {
    const float* row = &x[size_t(r * kCols)];
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < kCols; ++c) m = std::fmax(m, double(row[c]));
    for (int64_t c = 0; c < kCols; ++c) s += std::exp(double(row[c]) - m);
    for (int64_t c = 0; c < kCols; ++c) {
      const double want = std::exp(double(row[c]) - m) / s;
      require(near(y[size_t(r * kCols + c)], want, want * 10), "a softmax row");
    }
  }
  timeOnednn(st, fn);
  benchmark::DoNotOptimize(y.data());
  counters(st, double(kSoftRows * kCols * 8));
}
void matmulOnednn(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kMm * kMm)), b = randomFloats(size_t(kMm * kMm));
  std::vector<float> c(size_t(kMm * kMm));
  const auto fn = simdgen_bench::onednnMatmul(a.data(), b.data(), c.data(), kMm, kMm, kMm);
  fn();
  for (int64_t i = 0; i < kMm; i += 61)
    for (int64_t j = 0; j < kMm; j += 67) {
      double s = 0, m = 0;
      for (int64_t k = 0; k < kMm; ++k) {
        const double p = double(a[size_t(i * kMm + k)]) * double(b[size_t(k * kMm + j)]);
        s += p, m += std::fabs(p);
      }
      require(near(c[size_t(i * kMm + j)], s, m), "a matmul element");
    }
  timeOnednn(st, fn);
  benchmark::DoNotOptimize(c.data());
  st.counters["gflops"] = benchmark::Counter(2.0 * kMm * kMm * kMm * double(st.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
#endif

// OpenBLAS or BLIS (pthread builds) at st.range(0) threads, checked as oneDNN's matmul is.
template <bool (*Sgemm)(int, const float*, const float*, float*, int64_t, int64_t, int64_t)> void matmulBlas(benchmark::State& st) {
  static const std::vector<float> a = randomFloats(size_t(kMm * kMm)), b = randomFloats(size_t(kMm * kMm));
  std::vector<float> c(size_t(kMm * kMm));
  const int threads = int(st.range(0));
  if (!Sgemm(threads, a.data(), b.data(), c.data(), kMm, kMm, kMm)) {
    st.SkipWithError("the library's pthread build is not installed");
    return;
  }
  for (int64_t i = 0; i < kMm; i += 61)
    for (int64_t j = 0; j < kMm; j += 67) {
      double sum = 0, mag = 0;
      for (int64_t k = 0; k < kMm; ++k) {
        const double p = double(a[size_t(i * kMm + k)]) * double(b[size_t(k * kMm + j)]);
        sum += p, mag += std::fabs(p);
      }
      if (std::fabs(c[size_t(i * kMm + j)] - sum) > 1e-5 * mag + 1e-30) {
        std::fprintf(stderr, "blas peer: a matmul element differs from the reference\n");
        std::abort();
      }
    }
  for (auto _ : st) Sgemm(threads, a.data(), b.data(), c.data(), kMm, kMm, kMm);
  benchmark::DoNotOptimize(c.data());
  st.counters["gflops"] = benchmark::Counter(2.0 * kMm * kMm * kMm * double(st.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(matmulSimdgen)->Name("parallel/matmul_1024/simdgen")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(matmulOpenmp)->Name("parallel/matmul_1024/openmp_loop")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(rowsumSimdgen)->Name("parallel/rowsum_8192x4096/simdgen")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(rowsumOpenmp)->Name("parallel/rowsum_8192x4096/openmp_loop")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(transposeSimdgen)->Name("parallel/transpose_4096/simdgen")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(transposeOpenmp)->Name("parallel/transpose_4096/openmp_loop")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(softmaxSimdgen)->Name("parallel/softmax_4096x4096/simdgen")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(softmaxOpenmp)->Name("parallel/softmax_4096x4096/openmp_loop")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
#if SIMDGEN_BENCH_ONEDNN
BENCHMARK(matmulOnednn)->Name("parallel/matmul_1024/onednn")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(rowsumOnednn)->Name("parallel/rowsum_8192x4096/onednn")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(transposeOnednn)->Name("parallel/transpose_4096/onednn")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(softmaxOnednn)->Name("parallel/softmax_4096x4096/onednn")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif
// Last: OpenBLAS's pthread workers keep spinning for a while after a call, which would take the
// second core from every 2-thread benchmark registered after them.
BENCHMARK(matmulBlas<simdgen_bench::blisSgemm>)->Name("parallel/matmul_1024/blis")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(matmulBlas<simdgen_bench::openblasSgemm>)->Name("parallel/matmul_1024/openblas")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
