// SPDX-License-Identifier: Apache-2.0
// simdgen_bench: generated kernels and their peers, checked then timed in one
// run so that every figure shares the machine state and the input data.
#include <benchmark/benchmark.h>

#include "harness.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext(
      "cycles_per_second_used_for_bytes_per_cycle",
      std::to_string(benchmark::CPUInfo::Get().cycles_per_second));
  simdgen_bench::register_clock();
  simdgen_bench::register_read_bandwidth();
  simdgen_bench::queue_generated_kernels();
  simdgen_bench::queue_peers();
  simdgen_bench::register_queued_benchmarks();  // verifies, then registers
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
