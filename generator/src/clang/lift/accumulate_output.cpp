// SPDX-License-Identifier: Apache-2.0
// The spec and the call of an accumulation nest (accumulate_model.cpp): a contraction over
// dims c (the columns, the vector lanes) and r (the rows, summed in order) with "init": "output".
#include <nlohmann/json.hpp>

#include "clang/lift/accumulate_lift.h"
#include "clang/lift/lift_output.h"

namespace simdgen::lift {

std::string accumulateSpecJson(const AccumulateLift& lift, const std::string& name, const std::string& description) {
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = "contraction";
  j["dtype"] = lift.dtype;
  j["order"] = "sequential";
  j["dims"] = {{{"name", "c"}, {"extent", "cols"}}, {{"name", "r"}, {"extent", "rows"}, {"kind", "reduction"}}};
  const nlohmann::ordered_json weights = {{"name", lift.weights.name}, {"index", {"r"}}};
  const nlohmann::ordered_json matrix = {{"name", lift.matrix.name}, {"index", {"r", "c"}}, {"strides", {"stride", 1}}};
  j["operands"] = lift.weightsFirst ? nlohmann::ordered_json::array({weights, matrix}) : nlohmann::ordered_json::array({matrix, weights});
  j["init"] = "output";
  j["output"] = {{"name", lift.outName}, {"index", {"c"}}};
  j["targets"] = {"avx512", "avx2", "sve", "neon", "scalar"};  // no FMA in this order
  return j.dump(2) + "\n";
}

std::string accumulateReplacementCode(const AccumulateLift& lift, const std::string& name, const std::string& local) {
  const std::string nRows = local + "rows", nCols = local + "cols", stride = local + "stride";
  std::string code = "{\n  // simdgen lift: " + name + " (" + lift.summary + ")\n";
  code += "  const int64_t " + nRows + " = " + rangeCount(lift.outer) + ";\n";
  code += "  const int64_t " + nCols + " = " + rangeCount(lift.inner) + ";\n";
  code += "  const int64_t " + stride + " = (int64_t)" + paren(lift.matrix.stride) + ";\n";
  // Whole rows of at least one vector, a few rows (a call costs more than a short nest), and an
  // output that overlaps neither input (the loop reads the inputs after it wrote out[c]).
  const long long bytes = lift.dtype == "f32" ? 4 : 8;
  std::string cond = nRows + " >= 4 && " + nCols + " >= " + std::to_string((kMinRowBytes + bytes - 1) / bytes) + " && " + stride + " >= " + nCols;
  const std::string outEnd = paren(lift.out) + " + " + nCols;
  cond += " && " + disjointRanges(lift.out, outEnd, lift.weights.first, paren(lift.weights.first) + " + " + nRows);
  cond += " && " + disjointRanges(lift.out, outEnd, lift.matrix.first, paren(lift.matrix.first) + " + (" + nRows + " - 1) * " + stride + " + " + nCols);
  // The kernel's parameters: the operands in the product's order, cols, rows, the stride, out.
  const std::string operands = lift.weightsFirst ? lift.weights.first + ", " + lift.matrix.first : lift.matrix.first + ", " + lift.weights.first;
  code += "  if (" + cond + ") {\n    " + name + "(" + operands + ", " + nCols + ", " + nRows + ", " + stride + ", " + lift.out + ");\n" +
          counterFinals({&lift.outer, &lift.inner});
  code += "  } else {\n    " + lift.outer.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
