// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/rows_lift.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "clang/lift/lift_output.h"

namespace simdgen::lift {

std::string rowsSpecJson(const RowsLift& rows, const std::string& name, const std::string& description) {
  if (rows.expr) return exprRowsSpecJson(rows, name, description);
  const Recognition& r = rows.recognition;
  nlohmann::ordered_json j = specHead(r, name, description, rows.indexDtype);
  if (r.kind == "arg_reduce")
    j["initial"] = {{"value", nlohmann::json::parse(rows.initialValue)}, {"index", nlohmann::json::parse(rows.initialIndex)}};
  j["input"] = {{"dtype", r.element.dtype}, {"shape", {"rows", "cols"}}, {"row_stride", "stride"}};
  if (r.kind == "reduce") j["output"] = {{"dtype", r.outDtype}};
  if (rows.columns) j["axis"] = 0;
  if (rows.sequential) j["order"] = "sequential";
  return j.dump(2) + "\n";
}

std::string rowsReplacementCode(const RowsLift& rows, const std::string& name, const std::string& local) {
  if (rows.expr) return exprRowsReplacementCode(rows, name, local);
  const Recognition& r = rows.recognition;
  const std::string nRows = local + "rows", nCols = local + "cols", stride = local + "stride";
  const std::string m = paren(rows.matrix);
  // The kernel's rows run down the loops' columns when the inner loop does.
  const LoopModel& rowLoop = rows.columns ? rows.inner : rows.outer;
  const LoopModel& colLoop = rows.columns ? rows.outer : rows.inner;
  const std::string outputs = rows.columns ? nCols : nRows;

  std::string code = "{\n  // simdgen lift: " + name + " (" + r.summary + ")\n";
  code += "  const int64_t " + nRows + " = " + rangeCount(rowLoop) + ";\n";
  code += "  const int64_t " + nCols + " = " + rangeCount(colLoop) + ";\n";
  code += "  const int64_t " + stride + " = (int64_t)" + paren(rows.stride) + ";\n";
  // The kernel takes whole rows that do not overlap its outputs; anything else runs the loop.
  const std::string end = "(uintptr_t)(" + m + " + (" + nRows + " - 1) * " + stride + " + " + nCols + ")";
  auto apart = [&](const std::string& out) {
    return "((uintptr_t)(" + paren(out) + " + " + outputs + ") <= (uintptr_t)" + m + " || " + end + " <= (uintptr_t)" + paren(out) + ")";
  };
  // Short rows (a length known only at run time) run the loop too: see kMinRowBytes.
  std::string longRows = nCols + " > 0";
  if (!rows.columns && !staticTripCount(colLoop)) {
    const long long bytes = std::max(1u, r.element.bits / 8);
    longRows = nCols + " >= " + std::to_string((kMinRowBytes + bytes - 1) / bytes);
  }
  code += "  if (" + nRows + " > 0 && " + longRows + " && " + stride + " >= " + nCols + " && " + apart(rows.values);
  if (!rows.indices.empty()) code += " && " + apart(rows.indices);
  code += ") {\n";
  code += "    " + name + "(" + rows.matrix + ", " + nRows + ", " + nCols + ", " + stride + ", " + rows.values +
          (rows.indices.empty() ? "" : ", " + rows.indices) + ");\n" + counterFinals({&rows.outer, &rows.inner});
  code += "  } else {\n    " + rows.outer.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
