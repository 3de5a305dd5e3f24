// SPDX-License-Identifier: Apache-2.0
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

// Shared state and helpers for one plan. Runtime extents become parameters with generator-owned
// names (rows, cols, stride; n for 1-D) inside the .cpp; the user's names appear only in the header, so no
// generated identifier can capture or shadow them.
struct Builder {
  const KernelSpec& spec;
  const Target& target;
  ir::Plan plan;
  std::string rows, cols, stride;  // symbols: parameter names or the constants kRows/kCols/kStride
  int counter = 0;

  Builder(const KernelSpec& s, const Target& t) : spec(s), target(t) {
    plan.kernel = spec.name;
    plan.family = std::string(nameOf(spec.kind));
    plan.target = target.spelling;
    plan.vectorBits = target.vectorBits;
    plan.scalable = target.scalable;
    plan.rop = spec.op;
    plan.params.push_back({ir::Param::Kind::tensor, "input", "input", "input", ""});
    if (spec.rank == 2) rows = bind(spec.rows, "rows", "kRows", "rows (>= 0)");
    else rows = bind(spec.rows, "rows", "kRows", "");
    // A 1-D input has a length n; a 2-D one rows x cols.
    const bool square = spec.rank == 2 && !spec.cols.isStatic() && !spec.rows.isStatic() && spec.cols.name == spec.rows.name;
    cols = spec.rank == 1 ? bind(spec.cols, "n", "kCols", "elements (>= 0)")
           : square       ? rows  // one runtime name for both (a square transpose): one parameter
                          : bind(spec.cols, "cols", "kCols", "columns (>= 0)");
    stride = spec.rowStride ? bind(*spec.rowStride, "stride", "kStride", "elements between row starts (>= columns)") : cols;
    ir::Tensor in{"input", spec.input, false, {}, {}};
    if (spec.rank == 2) {
      in.extents = {sym(rows), sym(cols)};
      in.strides = {sym(stride), Index::constant(1)};
    } else {
      in.extents = {sym(cols)};
      in.strides = {Index::constant(1)};
    }
    plan.tensors.push_back(in);
  }

  // Binds an extent: a static one as a constant, a runtime one as a parameter.
  std::string bind(const Extent& e, const std::string& param, const char* constant, const std::string& doc) {
    if (e.isStatic()) {
      plan.constants.push_back({constant, *e.value});
      return constant;
    }
    plan.params.push_back({ir::Param::Kind::extent, param, e.name, "", doc});
    return param;
  }

  // Declares an output tensor and its pointer parameter (after the extents, in declaration order).
  void addOutput(const std::string& name, DType t, Index elems) {
    plan.tensors.push_back({name, t, true, {std::move(elems)}, {Index::constant(1)}});
    plan.params.push_back({ir::Param::Kind::tensor, name, name, name, ""});
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
  // pred = the lanes l with lo + l < hi: the first hi - lo lanes of a vector of t (svwhilelt).
  // `partial`: the caller guarantees 0 < hi - lo < lanes (a tail after a full-vector loop).
  Stmt whileLt(const std::string& pred, VecType t, Index lo, Index hi, bool partial) {
    Stmt s = make(OpKind::WhileLt, pred, t.mask());
    s.lo = std::move(lo);
    s.hi = std::move(hi);
    s.partialOnly = partial;
    return s;
  }
  // A load of the active lanes of `pred`; the others read the identity of the kernel's op.
  Stmt maskedLoad(const std::string& dst, VecType t, Index at, const std::string& pred) {
    Stmt s = make(OpKind::Load, dst, t);
    s.index = std::move(at);
    s.pred = pred;
    s.literal = identityLiteral(spec.op, t.elem);
    return s;
  }
  // acc = rop(x, acc): the new data first, so min/max keep the accumulator on ties and NaN.
  Stmt combine(const std::string& acc, const std::string& x, VecType t) {
    return make(OpKind::Binary, acc, t, {x, acc}, false);
  }
  Stmt store(const std::string& v, VecType t, Index at, const std::string& pred = "") {
    Stmt s = make(OpKind::Store, "", t, {v}, false);
    s.index = std::move(at);
    s.pred = pred;
    return s;
  }
  Index rowStart(const std::string& rowVar, int rowOffset = 0) const {
    return Index::symbol(rowVar).times(stride) + Index::symbol(stride, rowOffset);
  }
  Index sym(const std::string& s) const { return Index::symbol(s); }
  // The vector of t on the target (scalable on SVE) and its lane count as an index (vscale * lanes
  // when scalable): every step and offset in lanes goes through these, so one builder serves both.
  VecType vec(DType t) const { return target.vector(t); }
  static VecType withLanes(DType t, int lanes, const VecType& like) { return {t, lanes, like.scalable && lanes > 1, false}; }
  static Index lanesOf(const VecType& t) { return t.scalable ? Index::vscaled(t.lanes) : Index::constant(t.lanes); }
  // The most lanes a vector of t can have on the target (SVE: 2048 bits): static divisibility.
  int64_t maxLanes(const VecType& t) const { return t.scalable ? int64_t(t.lanes) * 16 : t.lanes; }
  void note(const std::string& line) { plan.summary.push_back(line); }
};

}  // namespace simdgen
