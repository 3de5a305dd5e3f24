// SPDX-License-Identifier: Apache-2.0
// The spec and the call of a row-wise sum of an expression (rows_expr_model): a rank-2 map whose
// outputs reduce each row, every matrix input with its own row stride, a row read by every row
// with row stride 0, a value per row with stride 0 and row stride 1.
#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "clang/lift/lift_output.h"
#include "clang/lift/rows_lift.h"

namespace simdgen::lift {
namespace {

// One spec name per distinct stride as written (`stride`, `stride2`, ...), apart from every
// other name of the kernel; per input, empty for a row every row reads.
std::vector<std::string> strideNames(const RowsLift& rows) {
  const MapLift& map = rows.expr->map;
  std::set<std::string> taken = {"rows", "cols"};
  for (const auto& in : map.inputs) taken.insert(in.name);
  for (const auto& p : map.params) taken.insert(p.name);
  for (const auto& out : map.outputs) taken.insert(out.name);
  std::vector<std::string> texts, names, perInput;
  for (const auto& in : rows.inputs) {
    if (in.stride.empty()) {
      perInput.push_back("");
      continue;
    }
    auto it = std::find(texts.begin(), texts.end(), in.stride);
    if (it == texts.end()) {
      std::string name = "stride";
      for (int k = 2; taken.count(name); ++k) name = "stride" + std::to_string(k);
      taken.insert(name);
      texts.push_back(in.stride);
      names.push_back(name);
      it = texts.end() - 1;
    }
    perInput.push_back(names[it - texts.begin()]);
  }
  return perInput;
}

}  // namespace

namespace {

// The scalar parameters of a sum in order's epilogue (`divisor`, `factor`, numbered past names
// the kernel already has).
std::vector<std::string> postNames(const RowsLift& rows) {
  const MapLift& map = rows.expr->map;
  std::set<std::string> taken = {"rows", "cols"};
  for (const auto& in : map.inputs) taken.insert(in.name);
  for (const auto& out : map.outputs) taken.insert(out.name);
  for (const auto& s : strideNames(rows)) taken.insert(s);
  std::vector<std::string> names;
  for (const auto& step : rows.post) {
    const std::string base = step.op == "div" ? "divisor" : "factor";
    std::string name = base;
    for (int k = 2; taken.count(name); ++k) name = base + std::to_string(k);
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

// A sum in order (rows_expr_model's inOrder): y[r] = sum over c of a[r][c] * x[c] (or x[c] *
// a[r][c]) as a contraction with order "sequential"; its parameters come in the map spec's order
// (operands, rows, cols, the stride, the output), so the call is the same.
nlohmann::ordered_json inOrderSpec(const RowsLift& rows, const std::vector<std::string>& strides, const std::string& name,
                                   const std::string& description) {
  const ExprReduceLift& er = *rows.expr;
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = "contraction";
  j["dtype"] = er.accumulators.front().type.dtype;
  j["order"] = "sequential";
  j["dims"] = {{{"name", "r"}, {"extent", "rows"}}, {{"name", "c"}, {"extent", "cols"}, {"kind", "reduction"}}};
  j["operands"] = nlohmann::json::array();
  for (size_t k = 0; k < rows.inputs.size(); ++k) {
    nlohmann::ordered_json op;
    op["name"] = er.map.inputs[k].name;
    if (strides[k].empty()) {
      op["index"] = {"c"};
    } else {
      op["index"] = {"r", "c"};
      op["strides"] = {strides[k], 1};
    }
    j["operands"].push_back(op);
  }
  j["output"] = {{"name", er.map.outputs.front().name}, {"index", {"r"}}};
  if (!rows.post.empty()) {
    j["epilogue"] = nlohmann::json::array();
    for (const std::string& by : postNames(rows)) j["epilogue"].push_back({{"op", rows.post[j["epilogue"].size()].op}, {"by", by}});
  }
  // No FMA is used in this order, so AVX2 needs no fma feature.
  j["targets"] = {"avx512", "avx2", "sve", "neon", "scalar"};
  return j;
}

}  // namespace

std::string exprRowsSpecJson(const RowsLift& rows, const std::string& name, const std::string& description) {
  const auto strides = strideNames(rows);
  if (rows.expr->sequential) return inOrderSpec(rows, strides, name, description).dump(2) + "\n";
  nlohmann::ordered_json j = exprReduceSpec(*rows.expr, name, description);
  j["shape"] = {"rows", "cols"};
  for (size_t k = 0; k < rows.inputs.size(); ++k) {
    nlohmann::ordered_json& input = j["inputs"][k];
    if (rows.inputs[k].perRow) input["stride"] = 0, input["row_stride"] = 1;  // one value per row
    else if (strides[k].empty()) input["row_stride"] = 0;                      // one row for all rows
    else input["row_stride"] = strides[k];
  }
  return j.dump(2) + "\n";
}

std::string exprRowsReplacementCode(const RowsLift& rows, const std::string& name, const std::string& local) {
  const ExprReduceLift& er = *rows.expr;
  const auto strides = strideNames(rows);
  const std::string nRows = local + "rows", nCols = local + "cols";
  std::string code = "{\n  // simdgen lift: " + name + " (" + rows.recognition.summary + ")\n";
  code += "  const int64_t " + nRows + " = " + rangeCount(rows.outer) + ";\n";
  code += "  const int64_t " + nCols + " = " + rangeCount(rows.inner) + ";\n";
  // The kernel takes whole rows (of at least kMinRowBytes when the length is known only at run
  // time), strides of at least a row, and outputs that overlap no input and no other output.
  std::string cond = nRows + " > 0 && " + nCols + " > 0";
  if (!staticTripCount(rows.inner)) {
    const long long bytes = std::max(1u, rows.recognition.element.bits / 8);
    cond = nRows + " > 0 && " + nCols + " >= " + std::to_string((kMinRowBytes + bytes - 1) / bytes);
  }
  // In order, the lanes are rows: fewer rows than a short vector's lanes leave most of it idle
  // (a 7 x 7 product ran 0.87x the loop on Zen 3), so the loop keeps them.
  if (er.sequential) cond += " && " + nRows + " >= 8";
  std::vector<std::string> declared, strideVars(strides.size());
  for (size_t k = 0; k < strides.size(); ++k) {
    if (strides[k].empty()) continue;
    strideVars[k] = local + strides[k];
    if (std::find(declared.begin(), declared.end(), strides[k]) != declared.end()) continue;
    declared.push_back(strides[k]);
    code += "  const int64_t " + strideVars[k] + " = (int64_t)" + paren(rows.inputs[k].stride) + ";\n";
    cond += " && " + strideVars[k] + " >= " + nCols;
  }
  for (size_t o = 0; o < rows.outputs.size(); ++o) {
    const std::string out = rows.outputs[o], outEnd = paren(out) + " + " + nRows;
    for (size_t k = 0; k < rows.inputs.size(); ++k) {
      const std::string in = rows.inputs[k].first;
      const std::string inEnd = rows.inputs[k].perRow ? paren(in) + " + " + nRows
                                : strides[k].empty()     ? paren(in) + " + " + nCols
                                                         : paren(in) + " + (" + nRows + " - 1) * " + strideVars[k] + " + " + nCols;
      cond += " && " + disjointRanges(out, outEnd, in, inEnd);
    }
    for (size_t m = o + 1; m < rows.outputs.size(); ++m)
      cond += " && " + disjointRanges(out, outEnd, rows.outputs[m], paren(rows.outputs[m]) + " + " + nRows);
  }
  // Arguments in the kernel's order: inputs, extents, new stride parameters, params, outputs.
  std::string args;
  for (const auto& in : rows.inputs) args += in.first + ", ";
  args += nRows + ", " + nCols;
  std::vector<std::string> passed;
  for (size_t k = 0; k < strides.size(); ++k)
    if (!strides[k].empty() && std::find(passed.begin(), passed.end(), strides[k]) == passed.end()) {
      passed.push_back(strides[k]);
      args += ", " + strideVars[k];
    }
  for (const auto& p : er.map.params) args += ", " + p.text;
  for (const auto& step : rows.post) args += ", " + paren(step.value);  // the epilogue's scalars, in its order
  for (const auto& out : rows.outputs) args += ", " + out;
  code += "  if (" + cond + ") {\n    " + name + "(" + args + ");\n" + counterFinals({&rows.outer, &rows.inner});
  code += "  } else {\n    " + rows.outer.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
