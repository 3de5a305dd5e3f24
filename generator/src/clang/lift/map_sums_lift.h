// SPDX-License-Identifier: Apache-2.0
#pragma once
// Element-wise loops that also add up what they compute (`x[i] = exp(x[i] - m); sum += x[i];`,
// softmax's middle loop): one `map` whose element-wise outputs are the stores and whose
// reduction outputs are the accumulators, all from one pass over the arrays. No clang headers.
#include <string>
#include <variant>

#include "clang/lift/loop_model.h"
#include "clang/lift/map_lift.h"
#include "clang/lift/recognize.h"
#include "clang/lift/reduce_expr_lift.h"

namespace simdgen::lift {

struct MapSumsLift {
  MapLift stores;       // the element-wise outputs (its inputs and params are sums.map's)
  ExprReduceLift sums;  // sums.map: every input and param; its outputs are the reductions
  std::string summary;  // "map f32 -> f32 (1 input, 1 output) and reduce add over y (f32)"
};

// The loop's stores as recognizeMap sees them, and every carried variable as recognizeExprReduce
// does (a stored value read back is named after its output); or why not.
std::variant<MapSumsLift, std::string> recognizeMapSums(const MapModel& model, const Options& options, int mathUlp);
std::string mapSumsSpecJson(const MapSumsLift& lift, const std::string& name, const std::string& description);
// Calls the kernel as mapReplacementCode does and combines each sum with its accumulator as
// exprReduceReplacementCode does.
std::string mapSumsReplacementCode(const MapModel& model, const MapSumsLift& lift, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
