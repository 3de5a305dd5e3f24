// SPDX-License-Identifier: Apache-2.0
// The spec and the call of an element-wise nest over matrix rows (rows_map_model): a rank-2 map
// whose outputs share the kernel's row stride, each input with its own (0: one row for every
// row; a value per row: stride 0 and row stride 1).
#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "clang/lift/lift_output.h"
#include "clang/lift/rows_map_lift.h"

namespace simdgen::lift {
namespace {

// The spec's name of each distinct row stride as written: the outputs' is `stride` (the kernel's
// row_stride), the others `stride2`, ... apart from every other name of the kernel. Per input:
// its name, or "" for the outputs' stride (the default) and for rows every row reads.
struct StrideNames {
  std::string outputs;
  std::vector<std::string> perInput;
  std::vector<std::pair<std::string, std::string>> extra;  // (name, text) of the inputs' own strides, in order
};

StrideNames strideNames(const RowsMapLift& lift) {
  std::set<std::string> taken = {"rows", "cols"};
  for (const auto& in : lift.map.inputs) taken.insert(in.name);
  for (const auto& p : lift.map.params) taken.insert(p.name);
  for (const auto& out : lift.map.outputs) taken.insert(out.name);
  auto fresh = [&](const std::string& base) {
    std::string name = base;
    for (int k = 2; taken.count(name); ++k) name = base + std::to_string(k);
    taken.insert(name);
    return name;
  };
  StrideNames s;
  s.outputs = fresh("stride");
  for (const auto& in : lift.inputs) {
    if (in.perRow || in.stride.empty() || in.stride == lift.outStride) {
      s.perInput.push_back("");
      continue;
    }
    auto it = std::find_if(s.extra.begin(), s.extra.end(), [&](const auto& e) { return e.second == in.stride; });
    if (it == s.extra.end()) {
      s.extra.push_back({fresh("stride"), in.stride});
      it = s.extra.end() - 1;
    }
    s.perInput.push_back(it->first);
  }
  return s;
}

}  // namespace

long long RowsMapLift::minCols() const {
  unsigned bytes = 1;
  for (const auto& in : map.inputs) bytes = std::max(bytes, in.type.bits / 8);
  for (const auto& out : map.outputs) bytes = std::max(bytes, out.type.bits / 8);
  return (kMinRowBytes + bytes - 1) / bytes;
}

std::string rowsMapSpecJson(const RowsMapLift& lift, const std::string& name, const std::string& description) {
  const StrideNames strides = strideNames(lift);
  nlohmann::ordered_json j = mapSpec(lift.map, name, description);
  nlohmann::ordered_json out;
  for (auto it = j.begin(); it != j.end(); ++it) {  // shape and row_stride where a rank-2 spec has them
    if (it.key() == "shape") {
      out["shape"] = {"rows", "cols"};
      out["row_stride"] = strides.outputs;
    } else {
      out[it.key()] = it.value();
    }
  }
  for (size_t k = 0; k < lift.inputs.size(); ++k) {
    nlohmann::ordered_json& input = out["inputs"][k];
    if (lift.inputs[k].perRow) input["stride"] = 0, input["row_stride"] = 1;  // one value per row
    else if (lift.inputs[k].stride.empty()) input["row_stride"] = 0;          // one row for all rows
    else if (!strides.perInput[k].empty()) input["row_stride"] = strides.perInput[k];
  }
  return out.dump(2) + "\n";
}

std::string rowsMapReplacementCode(const RowsMapLift& lift, const std::string& name, const std::string& local) {
  const StrideNames strides = strideNames(lift);
  const std::string nRows = local + "rows", nCols = local + "cols", outStride = local + strides.outputs;
  std::string code = "{\n  // simdgen lift: " + name + " (" + lift.summary + ")\n";
  code += "  const int64_t " + nRows + " = " + rangeCount(lift.outer) + ";\n";
  code += "  const int64_t " + nCols + " = " + rangeCount(lift.inner) + ";\n";
  code += "  const int64_t " + outStride + " = (int64_t)" + paren(lift.outStride) + ";\n";
  // Whole rows long enough for a call to pay (minCols), strides of at least a row.
  std::string cond = nRows + " > 0 && " + nCols + " >= " + std::to_string(lift.minCols()) + " && " + outStride + " >= " + nCols;
  std::map<std::string, std::string> strideVar;  // stride text -> block variable
  strideVar[lift.outStride] = outStride;
  for (const auto& [n, text] : strides.extra) {
    strideVar[text] = local + n;
    code += "  const int64_t " + local + n + " = (int64_t)" + paren(text) + ";\n";
    cond += " && " + local + n + " >= " + nCols;
  }
  // The elements an array's rows span: [first, end).
  auto end = [&](const RowsMapLift::Layout& l) {
    if (l.perRow) return paren(l.first) + " + " + nRows;
    if (l.stride.empty()) return paren(l.first) + " + " + nCols;
    return paren(l.first) + " + (" + nRows + " - 1) * " + strideVar.at(l.stride) + " + " + nCols;
  };
  const MapLift& map = lift.map;
  for (size_t o = 0; o < lift.outputs.size(); ++o) {
    const RowsMapLift::Layout out{lift.outputs[o], lift.outStride, false};
    for (size_t k = 0; k < lift.inputs.size(); ++k)
      if (map.inputs[k].name != map.outputs[o].inPlace) cond += " && " + disjointRanges(out.first, end(out), lift.inputs[k].first, end(lift.inputs[k]));
    for (size_t m = o + 1; m < lift.outputs.size(); ++m) {
      const RowsMapLift::Layout other{lift.outputs[m], lift.outStride, false};
      cond += " && " + disjointRanges(out.first, end(out), other.first, end(other));
    }
    for (const auto& v : lift.scalarsFromMemory) {  // a scalar taken by value must not be an element stored
      const std::string at = "(uintptr_t)&" + paren(v);
      cond += " && (" + at + " < (uintptr_t)" + paren(out.first) + " || " + at + " >= (uintptr_t)(" + end(out) + "))";
    }
  }
  // Arguments in the kernel's order: inputs, extents, the row stride, new strides, params, outputs.
  std::string args;
  for (const auto& in : lift.inputs) args += in.first + ", ";
  args += nRows + ", " + nCols + ", " + outStride;
  for (const auto& [n, text] : strides.extra) args += ", " + local + n;
  for (const auto& p : map.params) args += ", " + p.text;
  for (const auto& out : lift.outputs) args += ", " + out;
  code += "  if (" + cond + ") {\n    " + name + "(" + args + ");\n" + counterFinals({&lift.outer, &lift.inner});
  code += "  } else {\n    " + lift.outer.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
