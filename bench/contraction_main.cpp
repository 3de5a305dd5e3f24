// SPDX-License-Identifier: Apache-2.0
// simdgen_bench_contraction: the contraction benchmarks (bench_contraction.cpp)
// and the clock reference (clock.cpp) in one binary of their own, like
// simdgen_bench_transpose. Every library is held to one thread before anything
// runs, and the JSON context records each one's version and configuration.
#include <benchmark/benchmark.h>

#include "harness.h"  // register_clock()
#include "peers_contraction.h"

namespace simdgen_bench {
void register_contraction_benchmarks();  // bench_contraction.cpp
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  using namespace simdgen_bench;
  benchmark::AddCustomContext("openblas", openblas_single_thread());
  benchmark::AddCustomContext("blis", blis_single_thread());
  benchmark::AddCustomContext("onednn", onednn_single_thread());
  benchmark::AddCustomContext("halide_target", halide_target());
  benchmark::AddCustomContext("simdgen", simdgen_contraction_info());
  register_clock();
  register_contraction_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
