// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/map_sums_lift.h"

#include <algorithm>

#include "clang/lift/lift_output.h"

namespace simdgen::lift {

std::variant<MapSumsLift, std::string> recognizeMapSums(const MapModel& model, const Options& options, int mathUlp) {
  // The stores may not read an accumulator: the kernel computes every element from the arrays
  // alone (`y[i] = sum; sum += x[i]` is a prefix sum).
  for (const MapStore& st : model.stores)
    if (uses(*st.value, Sym::Kind::carried))
      return std::string("`" + st.base + "` is stored a value that depends on the accumulators (a running sum is not element-wise)");
  if (!model.domainErrors.empty())
    return std::string("`sqrt` sets errno for a negative argument, which the kernel does not report beside sums: compile with "
                       "-fno-math-errno (or -ffast-math) if nothing reads errno");
  auto stores = recognizeMap(model, mathUlp, options.stridedInputs);
  if (auto* why = std::get_if<std::string>(&stores)) return "as an element-wise loop: " + *why;
  MapSumsLift lift;
  lift.stores = std::get<MapLift>(stores);
  // A value the loop stores and reads back (`sum += x[i]` after `x[i] = ...`) is that output.
  for (size_t k = 0; k < model.stores.size(); ++k) lift.stores.named.push_back({model.stores[k].value.get(), lift.stores.outputs[k].name});
  auto sums = recognizeExprReduce(model.loop, options, mathUlp, &lift.stores);
  if (auto* why = std::get_if<std::string>(&sums)) return *why;
  lift.sums = std::get<ExprReduceLift>(sums);
  // The reductions may have added inputs and params (shared with the stores' expressions).
  lift.stores.inputs = lift.sums.map.inputs;
  lift.stores.params = lift.sums.map.params;
  lift.stores.fused = lift.stores.fused || lift.sums.map.fused;
  lift.stores.maxUlp = std::max(lift.stores.maxUlp, lift.sums.map.maxUlp);
  for (auto& out : lift.stores.outputs)
    for (const auto& in : lift.stores.inputs)
      if (in.base == out.base && in.offset != out.offset)
        return std::string("`" + out.base + "` is read and written at different positions (a[i] = a[i + 1]: a shift, not element-wise)");
  lift.summary = lift.stores.summary + " and " + lift.sums.summary;
  return lift;
}

std::string mapSumsSpecJson(const MapSumsLift& lift, const std::string& name, const std::string& description) {
  nlohmann::ordered_json j = mapSpec(lift.stores, name, description);
  for (size_t k = 0; k < lift.sums.map.outputs.size(); ++k) {
    const auto& out = lift.sums.map.outputs[k];
    j["outputs"].push_back({{"name", out.name}, {"dtype", out.type.dtype}, {"reduce", lift.sums.accumulators[k].op}, {"expr", out.expr}});
  }
  return j.dump(2) + "\n";
}

std::string mapSumsReplacementCode(const MapModel& model, const MapSumsLift& lift, const std::string& name, const std::string& local) {
  const LoopModel& loop = model.loop;
  const std::string n = local + "n";
  std::string args;
  for (const auto& in : lift.stores.inputs) args += mapPointer(loop, in) + ", ";  // (no char: sums compute)
  args += n + runtimeStrideArgs(lift.stores);
  for (const auto& p : lift.stores.params) args += ", " + p.text;
  for (const auto& out : lift.stores.outputs) args += ", " + mapPointer(loop, out, true);
  std::string body = exprReduceResults(lift.sums, local, args);
  body += "    " + name + "(" + args + ");\n" + exprReduceCombine(lift.sums, local) + counterFinals({&loop});

  std::string code = "{\n  // simdgen lift: " + name + " (" + lift.summary + ")\n";
  code += "  const int64_t " + n + " = " + rangeCount(loop) + ";\n";
  // Short runtime ranges keep the loop (kMinRuntimeTrip); a static one is at least kMinStaticTrip.
  std::string cond = loop.tripCount ? n + " > 0" : n + " >= " + std::to_string(kMinRuntimeTrip);
  for (const auto& g : model.guards) cond += " && " + paren(g);  // false: the loop runs as written
  for (const auto& c : mapCallChecks(model, lift.stores, n)) cond += " && " + c;
  code += "  if (" + cond + ") {\n" + body + "  } else {\n    " + loop.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
