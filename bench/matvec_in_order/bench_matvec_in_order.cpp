// SPDX-License-Identifier: Apache-2.0
// y = W x with every row's sum in the loop's order (issue 66: what `simdgen lift` writes for
// llama2.c's matmul without --reassociate): the contraction with "order": "sequential"
// (specs/matvec_f32_sequential.json: one lane per row, W through transposed tiles, no FMA)
// against the plain loop under clang++-19 and g++-12 (-O3 -march=native -ffp-contract=off), whose
// results it equals bit for bit (checked before timing), and, as the price of that order, against
// the reassociated forms: the map kernel `lift --reassociate` writes and OpenBLAS's sgemv.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "matvec_f32_sequential.h"
#include "matvec_reassociated_f32.h"
#include "peers_matvec.h"

namespace {

using Fn = std::function<void(const float*, const float*, int64_t, int64_t, int64_t, float*)>;

struct Problem {
  std::vector<float> w, x, y;
  Problem(int64_t rows, int64_t cols) : w(size_t(rows * cols)), x(size_t(cols)), y(size_t(rows)) {
    uint32_t s = 12345;
    auto next = [&] { return float(int32_t((s = s * 1664525u + 1013904223u) >> 8) - (1 << 23)) * 0x1p-23f; };
    for (auto& v : w) v = next();
    for (auto& v : x) v = next();
  }
};

// exact: the results must be the plain loop's bits (the in-order kernel); otherwise only run.
void add(const std::string& impl, Fn fn, int64_t rows, int64_t cols, bool exact) {
  const std::string name = "matvec/" + impl + "/" + std::to_string(rows) + "x" + std::to_string(cols);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    Problem p(rows, cols);
    if (exact) {
      std::vector<float> want(static_cast<size_t>(rows));
      matvec_plain_gcc12(p.w.data(), p.x.data(), rows, cols, cols, want.data());
      fn(p.w.data(), p.x.data(), rows, cols, cols, p.y.data());
      if (std::memcmp(want.data(), p.y.data(), sizeof(float) * size_t(rows)) != 0) {
        std::fprintf(stderr, "%s: results differ from the plain loop's\n", name.c_str());
        std::abort();
      }
    }
    for (auto _ : state) {
      fn(p.w.data(), p.x.data(), rows, cols, cols, p.y.data());
      benchmark::DoNotOptimize(p.y.data());
      benchmark::ClobberMemory();
    }
    state.counters["elements_per_ns"] = benchmark::Counter(double(rows * cols) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(int64_t(state.iterations()) * rows * cols * int64_t(sizeof(float)));
  });
}

Fn inOrder(void (*kernel)(const float*, const float*, int64_t, int64_t, int64_t, float*)) {
  return [kernel](const float* w, const float* x, int64_t rows, int64_t cols, int64_t ld, float* y) { kernel(w, x, rows, cols, ld, y); };
}

}  // namespace

int main(int argc, char** argv) {
  // llama2.c's 15M model has dim 288 and hidden 768; 4096 x 4096 streams 64 MiB from memory.
  for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{64, 64}, {288, 288}, {768, 288}, {1024, 1024}, {4096, 4096}}) {
    add("simdgen_in_order", inOrder(matvec_f32_sequential), rows, cols, true);
    if (__builtin_cpu_supports("avx512f")) add("simdgen_in_order.avx512", inOrder(matvec_f32_sequential_avx512), rows, cols, true);
    if (__builtin_cpu_supports("avx2")) add("simdgen_in_order.avx2", inOrder(matvec_f32_sequential_avx2), rows, cols, true);
    add("simdgen_in_order.scalar", inOrder(matvec_f32_sequential_scalar), rows, cols, true);
    add("plain.clang19", matvec_plain_clang19, rows, cols, true);
    add("plain.gcc12", matvec_plain_gcc12, rows, cols, true);
    add("simdgen_reassociated", inOrder(matvec_reassociated_f32), rows, cols, false);
#ifdef SIMDGEN_BENCH_HAVE_OPENBLAS
    add("openblas", matvec_openblas, rows, cols, false);
#endif
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
}
