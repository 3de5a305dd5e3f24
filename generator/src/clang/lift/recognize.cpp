// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/recognize.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace simdgen::lift {
namespace {

using Kind = Sym::Kind;
using Result = std::variant<Recognition, std::string>;

void collectLoads(const SymPtr& s, std::vector<SymPtr>& out) {
  if (s->kind == Kind::load) out.push_back(s);
  for (const auto& a : s->args) collectLoads(a, out);
}


bool isLoad(const Sym& s) { return stripCasts(s).kind == Kind::load; }

// The element type itself (the load's type).
const ScalarType& elementOf(const Sym& s) { return stripCasts(s).type; }

// A min/max step `acc = cond ? x : acc` (or its mirror): when does x replace acc?
struct MinMaxStep {
  std::string replaceRel;  // x replaces acc when `x replaceRel acc`
  const Sym* cond = nullptr;
  bool loadInTrueBranch = true;
};

std::variant<MinMaxStep, std::string> minMaxStep(const Sym& top, const std::string& acc, const ScalarType& accType) {
  Select sel = normalizedSelect(top);
  const Sym& c = *sel.cond;
  if (c.kind != Kind::compare) return std::string("the condition " + render(c) + " is not a comparison of the element with " + acc);
  if (c.op == "==" || c.op == "!=") return std::string("an equality test (" + render(c) + ") selects no minimum or maximum");
  const Sym& lhs = *c.args[0];
  const Sym& rhs = *c.args[1];
  std::string rel;
  if (isLoad(lhs) && isCarried(rhs, acc)) rel = c.op;
  else if (isCarried(lhs, acc) && isLoad(rhs)) rel = flipRelation(c.op);
  else return std::string("the comparison " + render(c) + " is not between the element and " + acc);
  // Both sides compare by value: no sign reinterpretation on the way into the comparison.
  if (!chainPreservesValues(isLoad(lhs) ? lhs : rhs) || !preservesValues(accType, (isLoad(lhs) ? rhs : lhs).type))
    return std::string("the comparison " + render(c) + " converts a side to a type that cannot hold all its values "
                       "(signed against unsigned?)");
  MinMaxStep step;
  step.cond = sel.cond;
  if (isLoad(*sel.ifTrue) && isCarried(*sel.ifFalse, acc)) {
    step.replaceRel = rel;
  } else if (isCarried(*sel.ifTrue, acc) && isLoad(*sel.ifFalse)) {
    if (accType.isFloat)
      return std::string("a NaN element replaces " + acc + " in this form (the comparison is false, so the other branch "
                         "takes the element); write `if (x > " + acc + ") " + acc + " = x;` or fmax to ignore NaN");
    step.replaceRel = negateRelation(rel);
    step.loadInTrueBranch = false;
  } else {
    return std::string("the selected values are not the element and " + acc);
  }
  const Sym& assigned = step.loadInTrueBranch ? *sel.ifTrue : *sel.ifFalse;
  if (!chainPreservesValues(assigned) || !preservesValues(elementOf(assigned), accType))
    return std::string("assigning the element to " + acc + " (" + accType.spelling + ") changes its value");
  return step;
}

// The assignment's own conversion back to the accumulator's type, peeled.
const Sym& assignedValue(const Sym& next) { return next.kind == Kind::cast ? *next.args[0] : next; }

std::optional<std::string> intOutput(const ScalarType& element, unsigned bits) {
  const unsigned e = element.bits;
  const unsigned maxBits = e == 8 ? 32 : e == 16 ? 64 : 64;
  if (bits < e || bits > maxBits) return std::nullopt;
  return std::string(element.isSigned ? "i" : "u") + std::to_string(bits);
}

Result reduceOf(const CarriedVar& acc, const Options& options) {
  Recognition r;
  r.kind = "reduce";
  r.accName = acc.name;
  r.accType = acc.type;
  const Sym& top = assignedValue(*acc.next);
  if (acc.next->kind == Kind::cast && acc.type.isFloat && !(top.type == acc.type))
    return std::string(acc.name + " is computed in " + top.type.spelling + " and rounded to " + acc.type.spelling +
                       " at every step");
  if (top.kind == Kind::binary) {
    static const std::pair<const char*, const char*> ops[] = {{"+", "add"}, {"*", "mul"}, {"&", "and"}, {"|", "or"}, {"^", "xor"}};
    const char* op = nullptr;
    for (auto [sym, name] : ops)
      if (top.op == sym) op = name;
    if (!op) return std::string("`" + top.op + "` is not a reduction operator simdgen has (+ * & | ^, min, max)");
    const Sym* elem = nullptr;
    const Sym* carried = nullptr;
    for (int k = 0; k < 2; ++k) {
      if (isLoad(*top.args[k]) && isCarried(*top.args[1 - k], acc.name)) {
        elem = top.args[k].get();
        carried = top.args[1 - k].get();
      }
    }
    if (!elem) return std::string("the update " + render(top) + " combines " + acc.name + " with something other than the element itself");
    r.op = op;
    r.element = elementOf(*elem);
    r.combineOp = top.op;
    if (acc.type.isFloat) {
      if (!r.element.isFloat) return std::string("a float accumulator over integer elements");
      if (!chainPreservesValues(*elem) || !(top.type == acc.type) || !(carried->type == acc.type))
        return std::string("the update converts between float types on the way");
      if ((r.op == "add" || r.op == "mul") && !options.allowReassociation)
        return std::string("a float " + r.op + " would be reassociated across vector lanes, which changes its rounding; "
                           "pass --reassociate to accept that");
      r.reassociates = r.op == "add" || r.op == "mul";
      r.outDtype = acc.type.dtype;
    } else {
      if (r.element.isFloat) return std::string("an integer accumulator over float elements");
      // Integer + * & | ^ wrap modulo 2^bits of the accumulator: what counts is that each element
      // is sign- or zero-extended (by its own type) to at least the accumulator's width.
      for (const Sym* s = elem; s->kind == Kind::cast; s = s->args[0].get())
        if (s->type.bits < s->args[0]->type.bits || (s->args[0]->kind == Kind::cast && !preservesValues(s->args[0]->args[0]->type, s->args[0]->type)))
          return std::string("the element is narrowed or reinterpreted before it is combined");
      if (carried->type.bits < acc.type.bits) return std::string(acc.name + " is narrowed before it is combined");
      auto out = intOutput(r.element, acc.type.bits);
      if (!out) {
        if (acc.type.bits < r.element.bits)
          return std::string("the accumulator " + acc.name + " (" + acc.type.spelling + ") is narrower than the elements (" +
                             r.element.spelling + ")");
        if (r.op == "mul")
          return std::string("a " + std::to_string(acc.type.bits) + "-bit product of " + r.element.dtype +
                             " elements (simdgen widens 8-bit elements to at most 32 bits)");
        if (r.op == "add") {
          // A 64-bit sum of 8-bit elements: 32-bit sums of 2^24 elements cannot overflow
          // (|x| <= 2^7 or 2^8 - 1), and the rewrite adds them up in the accumulator's width.
          out = intOutput(r.element, 32);
          r.chunk = 1ll << 24;
        } else {
          out = r.element.dtype;  // & | ^ commute with the extension: combine in the element type, widen once
        }
      }
      r.outDtype = *out;
    }
    r.summary = "reduce " + r.op + " " + r.element.dtype + " -> " + (r.chunk ? acc.type.dtype + " (in " + r.outDtype + " chunks)" : r.outDtype);
    return r;
  }
  if (top.kind == Kind::fmax) {
    const Sym& a = *top.args[0];
    const Sym& b = *top.args[1];
    const Sym* elem = isLoad(a) && isCarried(b, acc.name) ? &a : isLoad(b) && isCarried(a, acc.name) ? &b : nullptr;
    if (!elem) return std::string(top.op + " of something other than the element and " + acc.name);
    r.element = elementOf(*elem);
    if (!chainPreservesValues(*elem) || !preservesValues(r.element, acc.type))
      return std::string("the element's conversion for " + top.op + " changes its value");
    r.op = top.op == "fmax" ? "max" : "min";
    r.combineRel = top.op == "fmax" ? ">" : "<";
    r.nanIgnoringCall = true;
    r.outDtype = r.element.dtype;
    r.summary = "reduce " + r.op + " " + r.element.dtype + " -> " + r.outDtype;
    return r;
  }
  if (top.kind == Kind::select) {
    auto step = minMaxStep(top, acc.name, acc.type);
    if (auto* why = std::get_if<std::string>(&step)) return *why;
    const auto& s = std::get<MinMaxStep>(step);
    const Select sel = normalizedSelect(top);
    r.element = elementOf(s.loadInTrueBranch ? *sel.ifTrue : *sel.ifFalse);
    r.op = s.replaceRel[0] == '>' ? "max" : "min";
    r.combineRel = s.replaceRel;
    r.outDtype = r.element.dtype;
    r.summary = "reduce " + r.op + " " + r.element.dtype + " -> " + r.outDtype;
    return r;
  }
  return std::string("the update of " + acc.name + " (" + render(top) + ") is not a reduction");
}

Result argReduceOf(const CarriedVar& value, const CarriedVar& index) {
  const Sym& vtop = assignedValue(*value.next);
  const Sym& itop = assignedValue(*index.next);
  if (vtop.kind != Kind::select || itop.kind != Kind::select)
    return std::string("the loop updates " + value.name + " and " + index.name + ", but not both under one comparison");
  auto step = minMaxStep(vtop, value.name, value.type);
  if (auto* why = std::get_if<std::string>(&step)) return *why;
  const auto& s = std::get<MinMaxStep>(step);
  const Select isel = normalizedSelect(itop);
  if (!sameSym(makeSym(*isel.cond), makeSym(*s.cond))) {
    if (uses(*isel.cond, Kind::select))
      return std::string("the index's comparison uses " + value.name + " as already updated in this iteration "
                         "(update the index first, or both under one `if`)");
    return std::string("the index and the value are updated under different comparisons");
  }
  const Sym* takesI = s.loadInTrueBranch ? isel.ifTrue : isel.ifFalse;
  const Sym* keeps = s.loadInTrueBranch ? isel.ifFalse : isel.ifTrue;
  if (stripCasts(*takesI).kind != Kind::induction || !isCarried(*keeps, index.name))
    return std::string(index.name + " does not take the loop index exactly when " + value.name + " takes the element");
  if (index.type.isFloat || index.type.dtype.empty()) return std::string("the index variable " + index.name + " is not an integer");
  Recognition r;
  r.kind = "arg_reduce";
  r.accName = value.name;
  r.accType = value.type;
  r.indexName = index.name;
  r.indexType = index.type;
  const Select vsel = normalizedSelect(vtop);
  r.element = elementOf(s.loadInTrueBranch ? *vsel.ifTrue : *vsel.ifFalse);
  r.op = s.replaceRel[0] == '>' ? "argmax" : "argmin";
  r.lastIndex = s.replaceRel.size() == 2;
  r.combineRel = s.replaceRel;
  r.outDtype = r.element.dtype;
  r.summary = "arg_reduce " + r.op + " " + r.element.dtype + (r.lastIndex ? " last" : " first");
  return r;
}

}  // namespace

std::optional<long long> staticTripCount(const LoopModel& loop) { return loop.tripCount; }

Result recognize(const LoopModel& loop, const Options& options) {
  if (loop.carried.empty()) return std::string("the loop changes no variable declared before it");
  std::vector<SymPtr> loads;
  for (const auto& c : loop.carried) collectLoads(c.next, loads);
  if (loads.empty()) return std::string("the loop reads no array element a[" + loop.inductionName + "]");
  for (const auto& l : loads)
    if (!sameSym(l, loads[0]))
      return std::string("the loop reads more than one array element per iteration (" + render(*loads[0]) + " and " +
                         render(*l) + ")");
  for (const auto& c : loop.carried) {
    if (c.type.dtype.empty()) return std::string("the variable " + c.name + " has a type simdgen cannot hold (" + c.type.spelling + ")");
    if (uses(*c.next, Kind::invariant) || uses(*c.next, Kind::constant))
      return std::string("the update of " + c.name + " involves other values than the element (" + render(*c.next) + ")");
  }
  const Sym& load = *loads[0];
  if (!load.stride.empty() && !options.allowStridedLoads)
    return std::string("the loop reads elements " + load.stride + " apart (" + render(load) +
                       "): strided loads are lifted only down the columns of a matrix, from the loop over its columns");
  if (load.type.dtype.empty())
    return std::string("the elements' type (" + load.type.spelling + ") is not one simdgen has" +
                       (load.type.spelling.find("char") != std::string::npos && load.type.spelling.find("signed") == std::string::npos
                            ? ": plain char's signedness depends on the target; use signed char, unsigned char or (u)int8_t"
                            : ""));
  Result result;
  if (loop.carried.size() == 1) {
    if (uses(*loop.carried[0].next, Kind::induction))
      return std::string("the update of " + loop.carried[0].name + " uses the loop index itself");
    result = reduceOf(loop.carried[0], options);
  } else if (loop.carried.size() == 2) {
    // The value takes the element; the index only compares it.
    auto takesElement = [](const CarriedVar& v) {
      const Sym& top = assignedValue(*v.next);
      return top.kind == Kind::select ? uses(*top.args[1], Kind::load) || uses(*top.args[2], Kind::load) : uses(top, Kind::load);
    };
    const bool firstIsValue = takesElement(loop.carried[0]);
    const CarriedVar& value = loop.carried[firstIsValue ? 0 : 1];
    const CarriedVar& index = loop.carried[firstIsValue ? 1 : 0];
    result = argReduceOf(value, index);
  } else {
    return std::string("the loop updates " + std::to_string(loop.carried.size()) + " variables; simdgen lifts one "
                       "accumulator or a value with its index");
  }
  if (auto* r = std::get_if<Recognition>(&result)) {
    r->baseText = load.name;
    r->offset = load.offset;
  }
  return result;
}

}  // namespace simdgen::lift
