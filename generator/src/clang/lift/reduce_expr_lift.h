// SPDX-License-Identifier: Apache-2.0
#pragma once
// Loops whose accumulators add up an expression of several arrays (`s += a[i] * b[i]`, a sum and
// a sum of squares together) as `map` specs with reduction outputs (docs/spec.md, "Reductions and
// passes"), and the block that calls the kernel and combines its results with the accumulators.
// No clang headers.
#include <string>
#include <variant>
#include <vector>

#include "clang/lift/loop_model.h"
#include "clang/lift/map_lift.h"
#include "clang/lift/recognize.h"

namespace simdgen::lift {

struct ExprReduceLift {
  MapLift map;  // inputs and params; outputs hold the reductions (expr, and `op` below)
  struct Accumulator {
    std::string name;  // the carried variable
    ScalarType type;
    std::string op;      // the spec's reduce op: add, and, or, xor, min, max
    // The C operator that adds the kernel's result to the accumulator (acc -= t: +, the kernel
    // sums -t); for min and max the relation under which the result replaces it (`<`, `>=`, ...).
    std::string combine;
  };
  std::vector<Accumulator> accumulators;  // one per map output, in order
  bool reassociates = false;
  // A float sum lifted without --reassociate because the caller can keep its order (a row-wise
  // sum of products: a contraction with order "sequential", one lane per row); the caller checks
  // that form and refuses otherwise.
  bool sequential = false;
  std::string summary;  // "reduce add (a * b) f32, 2 inputs"
};

// Every accumulator of the loop is `acc = acc OP expr(elements, scalars)` with OP one of + - & | ^
// (floats: + with options.allowReassociation), or a minimum or maximum of acc and such an
// expression (`if (t > acc) acc = t;`), and expr in the map family's language; or why not.
// `seed`: the inputs, params and element-wise outputs of a loop that also stores arrays (their
// names are kept, the reductions' names differ from them).
// `inOrder`: a float sum without --reassociate is returned marked `sequential` instead of refused.
std::variant<ExprReduceLift, std::string> recognizeExprReduce(const LoopModel& loop, const Options& options, int mathUlp,
                                                              const MapLift* seed = nullptr, bool inOrder = false);
// The reason a float sum of an expression is refused without --reassociate.
extern const char* const kReassociationRefusal;
// The remark for a loop that is neither a reduction of one array's elements (`plain`, why not)
// nor of an expression (`expr`): the expression's reason where the loop has that shape.
std::string exprReduceRefusal(const std::string& plain, const std::string& expr);
std::string exprReduceSpecJson(const ExprReduceLift& lift, const std::string& name, const std::string& description);
nlohmann::ordered_json exprReduceSpec(const ExprReduceLift& lift, const std::string& name, const std::string& description);
// Declares the block's result variables (`T simdgen_r0;`) and appends `, &simdgen_r0` to `args`.
std::string exprReduceResults(const ExprReduceLift& lift, const std::string& local, std::string& args);
// Combines each result with its accumulator as the loop would (integers wrap).
std::string exprReduceCombine(const ExprReduceLift& lift, const std::string& local);
// Calls the kernel over the loop's range (runtime ranges shorter than kMinRuntimeTrip keep the
// loop) and combines each result with its accumulator as the loop would (integers wrap).
std::string exprReduceReplacementCode(const LoopModel& loop, const ExprReduceLift& lift, const std::string& name,
                                      const std::string& local);

}  // namespace simdgen::lift
