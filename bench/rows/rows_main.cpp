// SPDX-License-Identifier: Apache-2.0
// simdgen_bench_rows: the row-kernel peers (bench_rows.cpp) and the clock reference
// (bench/clock.cpp) in one binary. Refuses to run with flush-to-zero or denormals-are-zero set: a
// -ffast-math link (crtfastmath.o) would set them for every peer.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cstdio>

#include "harness.h"  // simdgen_bench::register_clock

namespace simdgen_bench_rows {
void register_rows_benchmarks();  // bench_rows.cpp
}

int main(int argc, char** argv) {
  if (_mm_getcsr() & 0x8040) {
    std::fprintf(stderr, "simdgen_bench_rows: MXCSR 0x%04x has FTZ/DAZ set; refusing to run\n", _mm_getcsr());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  simdgen_bench::register_clock();
  simdgen_bench_rows::register_rows_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
