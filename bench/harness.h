// SPDX-License-Identifier: Apache-2.0
// Shared benchmark harness: every implementation (generated or peer) is a row
// kernel with the same signature, is checked once against a reference, and is
// then timed on the same 64-byte aligned random matrices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "row_kernel.h"

namespace simdgen_bench {

enum class Op { kSum, kMax };

struct Shape {
  int64_t rows;
  int64_t cols;
};

// The sizes from the brief: one aligned L2-sized case, one with a ragged tail
// (500 is not a multiple of any vector width), one small L1-resident case.
inline const std::vector<Shape> kDefaultShapes = {
    {384, 512}, {384, 500}, {64, 64}};

// Queue a benchmark named "<kernel>/<impl>/<rows>x<cols>" for each shape.
// Nothing is timed before it has been verified (see below).
void add_i8_sum(const std::string& kernel, const std::string& impl,
                RowKernelI8 fn,
                const std::vector<Shape>& shapes = kDefaultShapes);
void add_f32(const std::string& kernel, Op op, const std::string& impl,
             RowKernelF32 fn,
             const std::vector<Shape>& shapes = kDefaultShapes);

// Registers the queued cases grouped by kernel and size. Each one is checked
// against the reference once, before it is first timed; a mismatch aborts
// the run with a message.
void register_queued_benchmarks();

// Adds bytes_per_ns and bytes_per_cycle counters for `bytes_per_iter` bytes
// read per iteration (kernels and the read-bandwidth reference alike).
void set_bandwidth_counters(benchmark::State& state, double bytes_per_iter);

// Registration entry points, one per source file.
void queue_generated_kernels();  // bench_generated.cpp
void queue_peers();              // bench_peers.cpp
void register_read_bandwidth();  // read_bandwidth.cpp
void register_clock();           // clock.cpp
}  // namespace simdgen_bench
