// SPDX-License-Identifier: Apache-2.0
// Measures the core clock actually reached while benchmarking: a chain of
// 1000 dependent integer adds takes 1000 cycles. bytes_per_cycle counters use
// the OS's nominal frequency (often the base clock in a VM, below turbo), so
// the table states both and readers can convert.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "harness.h"

namespace simdgen_bench {

void register_clock() {
  benchmark::RegisterBenchmark("clock/dependent_add_chain", [](benchmark::State& state) {
    uint64_t x = 0;
    uint64_t one = 1;
    for (auto _ : state) {
      // A register operand, not an immediate: Intel's Golden Cove cores fold chains of
      // `add $imm` at renaming (this row read 16.6 GHz on a Sapphire Rapids host).
      asm volatile(".rept 1000\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
    }
    benchmark::DoNotOptimize(x);
    // 1000 cycles per iteration; the rate per second scaled by 1e-9 is GHz.
    state.counters["ghz"] =
        benchmark::Counter(1000 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  });
}

}  // namespace simdgen_bench
