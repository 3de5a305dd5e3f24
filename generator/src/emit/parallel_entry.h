// SPDX-License-Identifier: Apache-2.0
// A spec's "parallel": true adds NAME_parallel() beside the kernel: the same parameters and a
// caller's task runner (simdgen_runner, a C struct of a function pointer and its context). It
// splits the outermost runtime extent of the input (the rows; a 1-D map's elements) into tasks of
// whole multiples of 64 that each call the kernel on their part, so every row is computed by the
// same code as in the serial call and the results are the serial ones bit for bit, for any task
// count and order. Derived from the plan's tensors alone, so one function serves every family
// whose outputs all run along that extent (reduce and arg_reduce rows, maps, transposes).
#pragma once

#include <string>
#include <variant>

#include "ir/plan.h"

namespace simdgen {

// The bytes of input each task reads at least, unless the file is compiled with another
// SIMDGEN_PARALLEL_GRAIN_BYTES (tests use the smallest, kMinParallelGrainBytes).
constexpr long kParallelGrainBytes = 256 * 1024;
// Its smallest value (a static_assert in the generated file): every part must exceed L1 (32 KiB),
// where the reduce kernels choose their path for rows of 64..127 columns by whether the input
// fits; a part then chooses as the whole call does, and the results stay the serial ones.
constexpr long kMinParallelGrainBytes = 64 * 1024;

// The companion (header doc, declaration, definition), or why the plan cannot be split.
std::variant<ir::Companion, std::string> parallelEntry(const ir::Plan& plan, const std::string& name);
// One line for the plan summary and `simdgen explain`: what NAME_parallel() splits, and how.
std::string parallelSummary(const ir::Plan& plan, const std::string& name);

// The simdgen_runner type and its contract, for the header (guarded: every generated header and
// runtime/simdgen_threads.h define it identically).
std::string runnerDeclaration();

}  // namespace simdgen
