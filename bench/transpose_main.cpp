// SPDX-License-Identifier: Apache-2.0
// simdgen_bench_transpose: the transpose benchmarks (bench_transpose.cpp) and
// the clock reference (clock.cpp) in one binary of their own, like
// simdgen_bench_map, so that it runs in minutes.
#include <benchmark/benchmark.h>

#include "harness.h"  // register_clock()

namespace simdgen_bench {
void register_transpose_benchmarks();  // bench_transpose.cpp
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  simdgen_bench::register_clock();
  simdgen_bench::register_transpose_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
