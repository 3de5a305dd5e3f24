// Shared by the family builders: symbol binding for extents, fresh names, op constructors.
#pragma once

#include <string>
#include <vector>

#include "ir/plan.h"
#include "plan/reduce_builder.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

using ir::Index;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

inline const char* kReserved[] = {"i", "j", "input", "output", "values", "indices", "kRows", "kCols", "kStride"};

// Shared state and helpers for one plan.
struct Builder {
  const KernelSpec& spec;
  const Target& target;
  ir::Plan plan;
  std::string rows, cols, stride;  // symbols (runtime names or kRows/kCols/kStride)
  int counter = 0;

  Builder(const KernelSpec& s, const Target& t) : spec(s), target(t) {
    for (const Extent* e : {&spec.rows, &spec.cols})
      if (!e->isStatic())
        for (const char* r : kReserved)
          if (e->name == r)
            throw PlanError("runtime extent name '" + e->name + "' is reserved by the generated code");
    rows = bind(spec.rows, "kRows");
    cols = bind(spec.cols, "kCols");
    stride = spec.rowStride ? bind(*spec.rowStride, "kStride") : cols;
    plan.rowStride = stride;
    plan.kernel = spec.name;
    plan.target = target.spelling;
    plan.vectorBits = target.vectorBits;
    plan.input = spec.input;
    plan.output = spec.output;
    plan.rop = spec.op;
  }

  std::string bind(const Extent& e, const char* staticName) {
    if (e.isStatic()) {
      plan.constants.push_back({staticName, *e.value});
      return staticName;
    }
    plan.symbols.push_back(e.name);
    return e.name;
  }

  std::string fresh(const std::string& base) { return base + std::to_string(counter++); }

  Stmt make(OpKind k, const std::string& dst, VecType t, std::vector<std::string> args = {},
            bool declare = true) {
    Stmt s = ir::op(k, dst, t, std::move(args));
    s.declare = declare;
    s.rop = spec.op;
    return s;
  }
  Stmt splatIdentity(const std::string& dst, VecType t) {
    Stmt s = make(OpKind::Splat, dst, t);
    s.literal = identityLiteral(spec.op, t.elem);
    return s;
  }
  Stmt load(const std::string& dst, VecType t, Index at) {
    Stmt s = make(OpKind::Load, dst, t);
    s.index = std::move(at);
    return s;
  }
  Stmt loadPartial(const std::string& dst, VecType t, Index at, Index count) {
    Stmt s = make(OpKind::LoadPartial, dst, t);
    s.index = std::move(at);
    s.count = std::move(count);
    s.literal = identityLiteral(spec.op, t.elem);
    return s;
  }
  // acc = rop(x, acc): the new data first, so min/max keep the accumulator on ties and NaN.
  Stmt combine(const std::string& acc, const std::string& x, VecType t) {
    return make(OpKind::Binary, acc, t, {x, acc}, false);
  }
  Stmt store(const std::string& v, VecType t, Index at, Index count = {}) {
    Stmt s = make(OpKind::Store, "", t, {v}, false);
    s.index = std::move(at);
    s.count = std::move(count);
    return s;
  }
  Index rowStart(const std::string& rowVar, int rowOffset = 0) const {
    return Index::symbol(rowVar).times(stride) + Index::symbol(stride, rowOffset);
  }
  Index sym(const std::string& s) const { return Index::symbol(s); }
  void note(const std::string& line) { plan.summary.push_back(line); }
};

}  // namespace simdgen
