// SPDX-License-Identifier: Apache-2.0
// simdgen_bench_map: the map benchmarks (bench_map.cpp) and the clock
// reference in one binary, apart from simdgen_bench so that it builds
// without Eigen and runs in minutes.
#include <benchmark/benchmark.h>

#include <string>

#include "harness.h"

namespace simdgen_bench {
void register_map_benchmarks();  // bench_map.cpp
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  simdgen_bench::register_clock();
  simdgen_bench::register_map_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
