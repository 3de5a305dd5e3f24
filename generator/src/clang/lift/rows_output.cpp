// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/rows_lift.h"

#include <nlohmann/json.hpp>

#include "clang/lift/lift_output.h"

namespace simdgen::lift {

std::string rowsSpecJson(const RowsLift& rows, const std::string& name, const std::string& description) {
  const Recognition& r = rows.recognition;
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = r.kind;
  j["op"] = r.op;
  if (r.kind == "arg_reduce") {
    j["index"] = r.lastIndex ? "last" : "first";
    j["index_type"] = rows.indexDtype;
    if (r.element.isFloat) j["nan"] = "ignore";
    j["initial"] = {{"value", nlohmann::json::parse(rows.initialValue)}, {"index", nlohmann::json::parse(rows.initialIndex)}};
  }
  j["input"] = {{"dtype", r.element.dtype}, {"shape", {"rows", "cols"}}, {"row_stride", "stride"}};
  if (r.kind == "reduce") j["output"] = {{"dtype", r.outDtype}};
  return j.dump(2) + "\n";
}

std::string rowsReplacementCode(const RowsLift& rows, const std::string& name, const std::string& local) {
  const Recognition& r = rows.recognition;
  const std::string nRows = local + "rows", nCols = local + "cols", stride = local + "stride";
  // The first row's first column: the row's address plus the inner loop's start and offset.
  std::string matrix = rows.matrix;
  if (rows.inner.startText != "0") matrix += " + " + rangeStart(rows.inner);
  if (r.offset) matrix += (r.offset > 0 ? " + " : " - ") + std::to_string(r.offset > 0 ? r.offset : -r.offset);
  const std::string m = paren(matrix);

  std::string code = "{\n  // simdgen lift: " + name + " (" + r.summary + ", over rows)\n";
  code += "  const int64_t " + nRows + " = " + rangeCount(rows.outer) + ";\n";
  code += "  const int64_t " + nCols + " = " + rangeCount(rows.inner) + ";\n";
  code += "  const int64_t " + stride + " = (int64_t)" + paren(rows.stride) + ";\n";
  // The kernel takes whole rows that do not overlap its outputs; anything else runs the loop.
  const std::string end = "(uintptr_t)(" + m + " + (" + nRows + " - 1) * " + stride + " + " + nCols + ")";
  auto apart = [&](const std::string& out) {
    return "((uintptr_t)(" + paren(out) + " + " + nRows + ") <= (uintptr_t)" + m + " || " + end + " <= (uintptr_t)" + paren(out) + ")";
  };
  code += "  if (" + nRows + " > 0 && " + nCols + " > 0 && " + stride + " >= " + nCols + " && " + apart(rows.values);
  if (!rows.indices.empty()) code += " && " + apart(rows.indices);
  code += ") {\n";
  code += "    " + name + "(" + matrix + ", " + nRows + ", " + nCols + ", " + stride + ", " + rows.values +
          (rows.indices.empty() ? "" : ", " + rows.indices) + ");\n";
  code += "  } else {\n    " + rows.outer.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
