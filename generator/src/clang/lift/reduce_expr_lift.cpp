// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/reduce_expr_lift.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "clang/lift/lift_output.h"

namespace simdgen::lift {
using Kind = Sym::Kind;

const char* const kReassociationRefusal =
    "a float sum would be reassociated across vector lanes (and its products fused), which changes its rounding; pass --reassociate "
    "to accept that";

namespace {

// acc = min/max(acc, t) as C writes it: `if (t < acc) acc = t;`, `acc = t > acc ? t : acc`,
// `if (acc < t) acc = t;`: the comparison reads the term that replaces acc (t reads no
// accumulator). The map family's min/max keep the value so far on NaN terms, as these forms do; a
// float form where a NaN term would replace acc (`acc = acc > t ? acc : t`) is refused.
struct MinMaxUpdate {
  std::string op;          // min or max
  std::string replaceRel;  // t replaces acc when `t replaceRel acc`
  SymPtr term;
};

// |(double)x| of a float x is |x| exactly (the double holds x's value, and its magnitude is a
// float): C's `fabs(x[i]) > m` and `m = fabs(x[i])` over floats compare and assign float values.
SymPtr exactNarrowAbs(const Sym& s) {
  if (s.kind != Kind::math || s.op != "abs" || s.args[0]->kind != Kind::cast) return nullptr;
  const SymPtr& inner = s.args[0]->args[0];
  if (!inner->type.isFloat || !preservesValues(inner->type, s.args[0]->type)) return nullptr;
  return makeSym(Sym{Kind::math, inner->type, "abs", "", 0, {inner}});
}

std::variant<MinMaxUpdate, std::string> minMaxUpdate(const Sym& top, const CarriedVar& acc) {
  const Select sel = normalizedSelect(top);
  const Sym& c = *sel.cond;
  const std::string what = "the update of " + acc.name + " (" + render(top) + ")";
  if (c.kind != Kind::compare || c.op == "==" || c.op == "!=") return what + " is not a minimum or maximum: its condition is no ordering";
  const int carriedSide = isCarried(*c.args[0], acc.name) ? 0 : isCarried(*c.args[1], acc.name) ? 1 : -1;
  if (carriedSide < 0 || uses(*c.args[1 - carriedSide], Kind::carried))
    return what + " compares something other than " + acc.name + " with a term";
  const Sym& compared = *c.args[1 - carriedSide];
  const std::string rel = carriedSide == 1 ? c.op : flipRelation(c.op);  // compared rel acc
  MinMaxUpdate u;
  const Sym* assigned = nullptr;
  if (isCarried(*sel.ifFalse, acc.name) && !uses(*sel.ifTrue, Kind::carried)) {
    assigned = sel.ifTrue;
    u.replaceRel = rel;
  } else if (isCarried(*sel.ifTrue, acc.name) && !uses(*sel.ifFalse, Kind::carried)) {
    if (acc.type.isFloat)
      return "a NaN term replaces " + acc.name + " in this form (the comparison is false, so the other branch takes it); write `if (t > " +
             acc.name + ") " + acc.name + " = t;` to ignore NaN";
    assigned = sel.ifFalse;
    u.replaceRel = negateRelation(rel);
  } else {
    return what + " does not choose between " + acc.name + " and a term";
  }
  // The same value compared and assigned, each conversion on the way keeping its values, and acc
  // compared by value: then the kernel's min/max in acc's type picks what the loop picks.
  SymPtr value = std::make_shared<const Sym>(stripCasts(*assigned));
  SymPtr comparedValue = std::make_shared<const Sym>(stripCasts(compared));
  bool exact = chainPreservesValues(compared) && chainPreservesValues(*assigned);
  if (SymPtr a = exactNarrowAbs(*value), b = exactNarrowAbs(*comparedValue); a && b && !preservesValues(value->type, acc.type))
    value = a, comparedValue = b, exact = true;  // (float)fabs((double)x): the float |x|
  const Sym& accSide = *c.args[size_t(carriedSide)];
  if (!sameSym(comparedValue, value) || !exact || !preservesValues(value->type, acc.type) || !chainPreservesValues(accSide))
    return what + " compares and assigns different values, or converts one to a type that cannot hold it";
  u.op = u.replaceRel[0] == '<' ? "min" : "max";
  u.term = value;
  return u;
}

}  // namespace

std::variant<ExprReduceLift, std::string> recognizeExprReduce(const LoopModel& loop, const Options& options, int mathUlp,
                                                              const MapLift* seed, bool inOrder) {
  ExprReduceLift lift;
  std::vector<std::string> names;  // taken: the seed's outputs, the inputs and params, n
  if (seed) {
    lift.map = *seed;
    lift.map.outputs.clear();
    for (const auto& out : seed->outputs) names.push_back(out.name);
  } else {  // a reduction alone: its call passes the runtime strides (exprReduceReplacementCode)
    lift.map.stridedInputs = lift.map.runtimeStrides = options.stridedInputs;
  }
  if (loop.carried.empty()) return std::string("the loop changes no variable declared before it");
  static const std::pair<const char*, const char*> ops[] = {{"+", "add"}, {"&", "and"}, {"|", "or"}, {"^", "xor"}};
  for (const CarriedVar& acc : loop.carried) {
    if (acc.type.dtype.empty()) return std::string("the variable " + acc.name + " has a type simdgen cannot hold (" + acc.type.spelling + ")");
    // acc = (T)(acc OP e): C computes in the promoted type and converts back.
    const Sym& top = acc.next->kind == Kind::cast ? *acc.next->args[0] : *acc.next;
    if (top.kind == Kind::select) {
      auto mm = minMaxUpdate(top, acc);
      if (auto* why = std::get_if<std::string>(&mm)) return *why;
      const MinMaxUpdate& u = std::get<MinMaxUpdate>(mm);
      if (!uses(*u.term, Kind::load)) return std::string("the term compared with " + acc.name + " reads no array element");
      std::string why;
      auto e = mapExpression(lift.map, *u.term, acc.type, mathUlp, why);
      if (!e) return "the term compared with " + acc.name + ": " + why;
      MapLift::Array out;
      out.base = acc.name;
      out.type = acc.type;
      out.expr = *e;
      lift.map.outputs.push_back(out);
      lift.accumulators.push_back({acc.name, acc.type, u.op, u.replaceRel});
      continue;
    }
    if (top.kind != Kind::binary) return std::string("the update of " + acc.name + " (" + render(top) + ") is not a sum (or & | ^) of terms");
    const char* op = nullptr;
    for (auto [sym, name] : ops)
      if (top.op == sym) op = name;
    // acc - term is acc + (-term): a sum of the negated terms (exact negation; integers wrap).
    const bool minus = top.op == "-";
    if (minus) op = "add";
    if (!op) return std::string("the update of " + acc.name + " combines with `" + top.op + "`; lifted reductions of expressions use + - & | ^");
    const Sym* term = nullptr;
    const Sym* carried = nullptr;
    for (int k = 0; k < (minus ? 1 : 2); ++k)  // acc - term, not term - acc
      if (isCarried(*top.args[k], acc.name) && !uses(*top.args[1 - k], Kind::carried)) term = top.args[1 - k].get(), carried = top.args[k].get();
    if (!term) return std::string("the update " + render(top) + " is not " + acc.name + " " + top.op + " (a term that reads no accumulator)");
    if (!uses(*term, Kind::load)) return std::string("the term added to " + acc.name + " reads no array element");
    if (acc.type.isFloat) {
      if (std::string(op) != "add") return std::string("a bitwise operator on floats");
      // The sum in the accumulator's own type, every step (no double sum of floats rounded back).
      if (!(top.type == acc.type) || !(carried->type == acc.type))
        return std::string(acc.name + " is computed in " + top.type.spelling + " and rounded to " + acc.type.spelling + " at every step");
      if (options.allowReassociation) lift.reassociates = true;
      else if (inOrder) lift.sequential = true;
      else return std::string(kReassociationRefusal);
    } else {
      if (top.type.isFloat) return std::string("an integer accumulator " + acc.name + " takes a float sum");
      // Integer + & | ^ modulo 2^bits: computing wider and truncating each step is the same as in the
      // accumulator's width, as long as the accumulator itself is not narrowed first.
      if (carried->type.bits < acc.type.bits) return std::string(acc.name + " is narrowed before it is combined");
    }
    std::string why;
    auto e = mapExpression(lift.map, *term, acc.type, mathUlp, why);
    if (!e) return "the term added to " + acc.name + ": " + why;
    MapLift::Array out;
    out.base = acc.name;
    out.type = acc.type;
    out.expr = minus ? "-(" + *e + ")" : *e;
    lift.map.outputs.push_back(out);
    lift.accumulators.push_back({acc.name, acc.type, op, minus ? "+" : top.op});
  }
  for (const auto& in : lift.map.inputs)
    if (!in.base.empty() && loop.carried.size() && in.type.dtype.empty()) return std::string("the elements of " + in.base + " are " + in.type.spelling);
  // Output names: the accumulators', unless an input or param has it.
  for (const auto& in : lift.map.inputs) names.push_back(in.name), names.push_back(in.strideName);
  for (const auto& p : lift.map.params) names.push_back(p.name);
  names.push_back("n");
  for (size_t k = 0; k < lift.map.outputs.size(); ++k) {
    auto& out = lift.map.outputs[k];
    out.name = identifierFor(out.base);
    while (std::find(names.begin(), names.end(), out.name) != names.end()) out.name += "_sum";
    names.push_back(out.name);
  }
  std::string what;
  bool oneOp = true;
  for (const auto& a : lift.accumulators) oneOp = oneOp && a.op == lift.accumulators[0].op;
  for (size_t k = 0; k < lift.map.outputs.size(); ++k)
    what += (k ? ", " : "") + (oneOp ? "" : lift.accumulators[k].op + " of ") + lift.map.outputs[k].expr;
  lift.summary = (oneOp ? "reduce " + lift.accumulators[0].op + " over " : "reduce ") + what + " (" + lift.accumulators[0].type.dtype + ", " +
                 std::to_string(lift.map.inputs.size()) + " input" + (lift.map.inputs.size() > 1 ? "s" : "") + ")";
  return lift;
}

std::string exprReduceRefusal(const std::string& plain, const std::string& expr) {
  const bool moreThanOneElement = plain.find("more than one array element") != std::string::npos ||
                                  plain.find("other values than the element") != std::string::npos ||
                                  plain.find("something other than the element") != std::string::npos ||
                                  plain.find("variables; simdgen lifts one") != std::string::npos;
  // Only the option or the term stands in the way.
  const bool exprShape = expr.rfind("a float sum would be reassociated", 0) == 0 || expr.rfind("the term added to", 0) == 0;
  return moreThanOneElement || exprShape ? "as a reduction of an expression: " + expr : plain;
}

std::string exprReduceSpecJson(const ExprReduceLift& lift, const std::string& name, const std::string& description) {
  return exprReduceSpec(lift, name, description).dump(2) + "\n";
}

nlohmann::ordered_json exprReduceSpec(const ExprReduceLift& lift, const std::string& name, const std::string& description) {
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = "map";
  j["shape"] = {"n"};
  j["inputs"] = nlohmann::json::array();
  for (const auto& in : lift.map.inputs) j["inputs"].push_back(mapInputJson(in));
  if (!lift.map.params.empty()) {
    j["params"] = nlohmann::json::array();
    for (const auto& p : lift.map.params) j["params"].push_back({{"name", p.name}, {"dtype", p.type.dtype}});
  }
  if (lift.map.maxUlp > 0) j["max_ulp"] = lift.map.maxUlp;
  if (lift.map.fused) j["targets"] = {"avx512", "avx2+fma", "sve2", "sve", "neon", "scalar"};  // the defaults, AVX2 with FMA3
  j["outputs"] = nlohmann::json::array();
  for (size_t k = 0; k < lift.map.outputs.size(); ++k) {
    const auto& out = lift.map.outputs[k];
    j["outputs"].push_back({{"name", out.name}, {"dtype", out.type.dtype}, {"reduce", lift.accumulators[k].op}, {"expr", out.expr}});
  }
  return j;
}

std::string exprReduceResults(const ExprReduceLift& lift, const std::string& local, std::string& args) {
  std::string decls;
  for (size_t k = 0; k < lift.accumulators.size(); ++k) {
    const std::string r = local + "r" + std::to_string(k);
    decls += "    " + cType(lift.accumulators[k].type.dtype) + " " + r + ";\n";
    args += ", &" + r;
  }
  return decls;
}

std::string exprReduceCombine(const ExprReduceLift& lift, const std::string& local) {
  std::string body;
  for (size_t k = 0; k < lift.accumulators.size(); ++k) {
    const auto& a = lift.accumulators[k];
    const std::string r = local + "r" + std::to_string(k);
    if (a.op == "min" || a.op == "max") {
      // The loop's own rule: an empty or all-NaN range gives +-inf (or the type's limit), which
      // never replaces; a NaN accumulator stays NaN, as in the loop.
      body += "    if (" + r + " " + a.combine + " " + a.name + ") " + a.name + " = " + r + ";\n";
    } else if (a.type.isFloat) {
      body += "    " + a.name + " = " + a.name + " " + a.combine + " " + r + ";\n";
    } else {
      // In unsigned arithmetic: it wraps like the loop's accumulator, without signed overflow.
      const std::string u = a.type.bits > 32 ? "(uint64_t)" : "(uint32_t)";
      body += "    " + a.name + " = (" + a.type.spelling + ")(" + u + a.name + " " + a.combine + " " + u + r + ");\n";
    }
  }
  return body;
}

std::string exprReduceReplacementCode(const LoopModel& loop, const ExprReduceLift& lift, const std::string& name, const std::string& local) {
  const std::string n = local + "n";
  std::string args;
  for (const auto& in : lift.map.inputs) args += mapPointer(loop, in) + ", ";
  args += n + runtimeStrideArgs(lift.map);
  for (const auto& p : lift.map.params) args += ", " + p.text;
  std::string body = exprReduceResults(lift, local, args);
  body += "    " + name + "(" + args + ");\n";
  body += exprReduceCombine(lift, local);
  body += counterFinals({&loop});
  std::string code = "{\n  // simdgen lift: " + name + " (" + lift.summary + ")\n";
  code += "  const int64_t " + n + " = " + rangeCount(loop) + ";\n";
  // Short runtime ranges keep the loop (kMinRuntimeTrip); a static range is at least kMinStaticTrip.
  if (loop.tripCount) return code + "  if (" + n + " > 0) {\n" + body + "  }\n}";
  return code + "  if (" + n + " >= " + std::to_string(kMinRuntimeTrip) + ") {\n" + body + "  } else {\n    " + loop.loopText + "\n  }\n}";
}

}  // namespace simdgen::lift
