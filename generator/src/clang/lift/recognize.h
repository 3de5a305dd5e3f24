// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which spec a loop is, from its symbolic model: a reduction (reduce) or a min/max with index
// (arg_reduce), and how the kernel's result combines with the accumulators' values before the
// loop. Refusals say why, as the remark's text. No clang headers.
#include <optional>
#include <string>
#include <variant>

#include "clang/lift/loop_model.h"

namespace simdgen::lift {

struct Recognition {
  std::string kind;  // "reduce" or "arg_reduce"
  std::string op;    // add mul and or xor min max | argmin argmax
  ScalarType element;
  std::string outDtype;        // reduce: the kernel's output (accumulator) dtype
  std::string baseText;        // the array, as written
  long long offset = 0;        // element i + offset of the array is read
  std::string accName;         // the accumulator (reduce) or the best value (arg_reduce)
  ScalarType accType;
  // How the kernel's result r replaces the accumulator: reduce add/mul/and/or/xor combine with
  // `combineOp`; min/max and arg_reduce take r when `r <combineRel> acc`.
  std::string combineOp, combineRel;
  bool nanIgnoringCall = false;  // fmax/fmin: a NaN accumulator is replaced too
  std::string indexName;         // arg_reduce
  ScalarType indexType;
  bool lastIndex = false;
  bool reassociates = false;  // a float add/mul
  long long chunk = 0;        // > 0: the kernel runs over chunks of this many elements (a sum wider than its output)
  std::string summary;        // "reduce add i8 -> i32", "arg_reduce argmax i32 first"
};

struct Options {
  bool allowReassociation = false;
  bool allowStridedLoads = false;  // a[i * stride]: only down the columns of a matrix (rows_model)
  bool stridedInputs = false;      // a map's inputs at a constant stride (MapLift::stridedInputs): 1-D loops
};

// 1-D loops with fewer elements than this, known at compile time, stay as they are: measured on the
// corpus (bench/lift), a call through the dispatcher costs 10-30 ns, and such a loop less inline.
constexpr long long kMinStaticTrip = 64;
// Row-wise matrix reductions whose rows hold fewer bytes than this (one AVX-512 vector) stay as
// loops: measured on the corpus (bench/lift, 2026-11-26), one kernel call for every row of rows of
// 5 f32, 12 u16 and 9 i8 ran at 0.19x, 0.37x and 0.79x of the loop (the kernel's per-row start
// and horizontal reduction cost more than a few scalar steps); rows of 19 u32 (76 bytes) ran
// 2.3x faster. A row length known only at run time is tested there (the rewrite keeps the loop).
constexpr long long kMinRowBytes = 64;
// A 1-D loop whose trip count is known only at run time calls its kernel from this many elements
// on and runs as written below (the rewrite keeps the loop): bench/lift at small n, see docs/lift.md.
constexpr long long kMinRuntimeTrip = 32;
// The trip count when both bounds are compile-time constants.
std::optional<long long> staticTripCount(const LoopModel& loop);

// The Recognition, or why the loop is not lifted.
std::variant<Recognition, std::string> recognize(const LoopModel& loop, const Options& options);

}  // namespace simdgen::lift
