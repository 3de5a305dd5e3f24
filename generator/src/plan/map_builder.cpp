// SPDX-License-Identifier: Apache-2.0
// The `map` family: every output element is an expression of the input elements at the same
// position. One loop over the columns of each row (rank 1: one row):
//   tail "predicated", scalable target (SVE): one loop governed by whilelt whose last iteration is
//     partial (seed 001's SVE loop), no cleanup;
//   tail "predicated", fixed-width targets (AVX-512, AVX2, NEON): whole vectors, then one
//     whilelt-governed iteration for the rest, whose loads and stores touch the active lanes only
//     (never past the end). AVX-512 has the k-masks for a loop like SVE's, but a mask applied on
//     every iteration measured half the speed of unmasked whole vectors (docs/benchmarks.md).
//     AVX2 ends a row of at least one vector with its last whole vector again instead
//     (overlapsLastVector());
//   tail "scalar": whole vectors, then a one-lane loop over the rest.
// On x86 the whole vectors run 4 (or 2) per iteration, then one at a time. Arm loops are not
// unrolled: without Arm hardware their measure is qemu's instruction count, which unrolling would
// improve only by removing loop overhead that a wide core hides.
// With an in-place output the last whole vector is never re-processed with overlap: that would
// apply the expression twice to the overlapping elements.
#include "plan/map_builder.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <stdexcept>
#include <map>
#include <set>

#include "ir/simplify.h"
#include "plan/map_dot.h"
#include "plan/map_kept.h"
#include "plan/math/functions.h"
#include "plan/reduce_builder.h"  // PlanError

namespace simdgen {

namespace {

using ir::Index;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

ir::Cmp cmpOf(MapOp op) {
  switch (op) {
    case MapOp::lt: return ir::Cmp::lt;
    case MapOp::le: return ir::Cmp::le;
    case MapOp::gt: return ir::Cmp::gt;
    case MapOp::ge: return ir::Cmp::ge;
    case MapOp::eq: return ir::Cmp::eq;
    default: return ir::Cmp::ne;
  }
}

bool usesOp(const MapExpr& e, MapOp op) {
  if (e.op == op) return true;
  for (const MapExpr& a : e.args)
    if (usesOp(a, op)) return true;
  return false;
}

// Every element width a value of e has (comparisons: their operands'; a math function: the type
// it is computed in at the spec's tier, maxUlp).
void widthsOf(const MapExpr& e, int maxUlp, std::set<int>& out) {
  out.insert(bitsOf(e.type));
  if (e.op == MapOp::math) out.insert(bitsOf(math::workingType(e.fn, maxUlp, e.type)));
  for (const MapExpr& a : e.args) widthsOf(a, maxUlp, out);
}

// Whether any op of the block reads variable v (an operand or a governing predicate).
bool reads(const ir::Block& block, const std::string& v) {
  for (const ir::Stmt& s : block) {
    if (s.pred == v || std::find(s.args.begin(), s.args.end(), v) != s.args.end()) return true;
    if (reads(s.body, v)) return true;
  }
  return false;
}

bool usesConvert(const MapExpr& e) { return usesOp(e, MapOp::convert); }

// The C literal of an integer type's value with every bit set (what ~a xors with).
std::string allOnes(DType t) {
  if (isSigned(t)) return "-1";
  return bitsOf(t) == 64 ? "18446744073709551615ull" : std::to_string((uint64_t{1} << bitsOf(t)) - 1);
}

class MapBuilder {
 public:
  MapBuilder(const KernelSpec& s, const Target& t) : spec_(s), target_(t) {
    plan_.kernel = spec_.name;
    plan_.family = "map";
    plan_.strategy = std::string(nameOf(spec_.tail)) + "_tail";
    plan_.target = target_.spelling;
    plan_.vectorBits = target_.vectorBits;
    plan_.scalable = target_.scalable;
    plan_.rop = ReduceOp::add;  // one-lane signed integers are carried unsigned: + - * wrap in C
  }

  ir::Plan build() {
    for (const MapOutput& o : spec_.mapOutputs)
      if (usesOp(o.expr, MapOp::fma) && target_.module == LoweringModule::x86 && !target_.maskRegisters && !target_.has("fma"))
        throw PlanError("output " + o.name + " uses fma(), which needs a fused multiply-add: use target \"" + target_.isa +
                        "+fma\" instead of \"" + target_.spelling + "\"",
                        "/targets");
    declareTensors();
    kept_ = keptTerms(spec_);
    // A strided output is not read back (its elements would be gathered): the later pass computes
    // the terms again.
    std::erase_if(kept_, [&](const KeptTerm& t) { return outLayouts_[t.output].col.constantValue() != int64_t{1} || spec_.mapOutputLayouts[t.output].rowStride; });
    for (const KeptTerm& t : kept_)
      note("pass " + std::to_string(t.from + 1) + " stores " + spec_.mapOutputs[t.reduction].exprText + " (the terms of " +
           spec_.mapOutputs[t.reduction].name + ") into " + spec_.mapOutputs[t.output].name + ", and pass " + std::to_string(t.to + 1) +
           " reads it back instead of computing it again");
    const std::string c = spec_.rank == 2 ? "c" : "i";
    ir::Block row;
    int lastStage = 0;
    for (size_t k : computed()) lastStage = std::max(lastStage, spec_.mapOutputs[k].stage);
    for (stage_ = 0; stage_ <= lastStage; ++stage_) {
      if (stageOutputs().empty()) continue;
      findRowUniform();
      chooseLanes();
      chooseDotRoute();
      ir::Block pass = stagePrologue();
      // Each pass has its own column variable (a loop variable is declared once per scope).
      ir::Block loops = versions(stage_ ? c + std::to_string(stage_ + 1) : c, runtimeStrides());
      pass.insert(pass.end(), loops.begin(), loops.end());
      ir::Block epilogue = stageEpilogue();
      pass.insert(pass.end(), epilogue.begin(), epilogue.end());
      if (lastStage > 0) row.push_back(ir::comment("pass " + std::to_string(stage_ + 1) + " over the " + (spec_.rank == 2 ? "row" : "array")));
      row.insert(row.end(), pass.begin(), pass.end());
    }
    if (lastStage > 0)
      note(std::to_string(lastStage + 1) + " passes over each " + (spec_.rank == 2 ? "row" : "array") +
           ": a pass starts once the row values it uses (reductions of earlier passes) are known");
    if (spec_.rank == 2) {
      ir::Block init = columnReductionsStart();
      plan_.body.insert(plan_.body.end(), init.begin(), init.end());
      plan_.body.push_back(ir::forLoop("r", Index::constant(0), sym(rows_), 1, std::move(row), false, "rows"));
      ir::Block means = columnMeans();
      plan_.body.insert(plan_.body.end(), means.begin(), means.end());
    } else {
      plan_.body.insert(plan_.body.end(), row.begin(), row.end());
    }
    plan_.body.insert(plan_.body.begin(), constants_.begin(), constants_.end());
    ir::removeDeadCode(plan_);  // static extents: loops that cannot run (a cleanup after whole vectors)
    std::erase_if(plan_.body, [&](const Stmt& k) { return k.kind == Stmt::Kind::Op && k.op == OpKind::Splat && !reads(plan_.body, k.dst); });
    document();
    if (auto problems = plan_.verify(); !problems.empty())
      throw std::logic_error("internal error: map plan for " + target_.spelling + " fails verification: " + problems.front());
    return std::move(plan_);
  }

 private:
  // ---- the one place vector types and lane steps are chosen (a scalable target changes only these) ----
  // Values of several widths share the lane count of the widest (Highway's design): narrower
  // values are fractional vectors, the low lanes of a register of their own type.
  VecType vectorOf(DType t) const {
    if (!mixedLanes_) return target_.vector(t);
    VecType v = target_.vector(t);
    v.lanes = mixedLanes_;
    return v;
  }
  static VecType oneLane(DType t) { return VecType{t, 1}; }
  static Index lanesOf(VecType t) { return t.scalable ? Index::vscaled(t.lanes) : Index::constant(t.lanes); }

  Index sym(const std::string& s) const { return Index::symbol(s); }

  std::string bind(const Extent& e, const std::string& param, const char* constant, const std::string& doc) {
    if (e.isStatic()) {
      plan_.constants.push_back({constant, *e.value});
      return constant;
    }
    extents_.push_back({ir::Param::Kind::extent, param, e.name, "", doc});
    return param;
  }

  // Inputs in0.., outputs out0..: generator-owned names; the user's appear in the header only.
  void declareTensors() {
    if (spec_.rank == 2) rows_ = bind(spec_.rows, "rows", "kRows", "rows (>= 0)");
    cols_ = spec_.rank == 1 ? bind(spec_.cols, "n", "kCols", "elements (>= 0)") : bind(spec_.cols, "cols", "kCols", "columns (>= 0)");
    stride_ = spec_.rowStride ? bind(*spec_.rowStride, "stride", "kStride", "elements between row starts (>= columns)") : cols_;
    // Runtime strides of the inputs' own layouts: extent parameters after the shape's.
    for (size_t k = 0; k < spec_.mapStrideNames.size(); ++k)
      extents_.push_back({ir::Param::Kind::extent, "stride" + std::to_string(k + 1), spec_.mapStrideNames[k], "",
                          "elements between an input's elements or rows (>= 0)"});
    auto tensor = [&](const std::string& name, DType t, bool output, const Layout& at) {
      ir::Tensor x{name, t, output, {}, {}};
      if (spec_.rank == 2) {
        x.extents = {sym(rows_), sym(cols_)};
        x.strides = {at.row, at.col};
      } else {
        x.extents = {sym(cols_)};
        x.strides = {at.col};
      }
      plan_.tensors.push_back(x);
    };
    const Layout contiguous{sym(stride_), Index::constant(1)};
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k) outLayouts_.push_back(layoutOf(spec_.mapOutputLayouts[k], contiguous));
    for (size_t k = 0; k < spec_.mapInputs.size(); ++k) {
      layouts_.push_back(layoutOf(spec_.mapInputLayouts[k], contiguous));
      tensor(inName(int(k)), spec_.mapInputs[k].dtype, false, layouts_.back());
      plan_.params.push_back({ir::Param::Kind::tensor, inName(int(k)), spec_.mapInputs[k].name, inName(int(k)), ""});
    }
    plan_.params.insert(plan_.params.end(), extents_.begin(), extents_.end());
    for (size_t k = 0; k < spec_.mapParams.size(); ++k)
      plan_.params.push_back({ir::Param::Kind::scalar, paramName(int(k)), spec_.mapParams[k].name, "", "", spec_.mapParams[k].dtype});
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k) {
      const MapOutput& o = spec_.mapOutputs[k];
      if (o.internal) continue;
      if (o.columns) {  // one value per column
        plan_.tensors.push_back({outName(int(k)), o.dtype, true, {sym(cols_)}, {Index::constant(1)}});
      } else if (o.reduce) {  // one value per row (rank 1: one value)
        plan_.tensors.push_back({outName(int(k)), o.dtype, true, {spec_.rank == 2 ? sym(rows_) : Index::constant(1)}, {Index::constant(1)}});
      } else {
        tensor(outName(int(k)), o.dtype, true, outLayouts_[k]);
      }
      plan_.params.push_back({ir::Param::Kind::tensor, outName(int(k)), o.name, outName(int(k)), ""});
    }
  }
  // Where element [r, c] of a tensor is: r * row + c * col elements from its start.
  struct Layout {
    Index row, col;
  };
  // The plan's name for a stride of the spec: a number, or the parameter (or constant) of that name.
  Index strideIndex(const Extent& e) const {
    if (e.isStatic()) return Index::constant(*e.value);
    if (e.name == spec_.rows.name && !spec_.rows.isStatic()) return sym(rows_);
    if (e.name == spec_.cols.name && !spec_.cols.isStatic()) return sym(cols_);
    if (spec_.rowStride && !spec_.rowStride->isStatic() && e.name == spec_.rowStride->name) return sym(stride_);
    const auto& names = spec_.mapStrideNames;
    return sym("stride" + std::to_string(std::find(names.begin(), names.end(), e.name) - names.begin() + 1));
  }
  // a * b, where b is one term: a number times symbols (a stride, or a row stride times a stride:
  // every symbol counts).
  static Index times(const Index& a, const Index& b) {
    if (auto c = b.constantValue()) return (a * *c).simplified();
    if (b.terms.size() != 1) throw std::logic_error("map builder: a stride of several terms: " + b.str());
    Index r = a * b.terms.front().coef;
    for (const std::string& s : b.terms.front().symbols) r = r.times(s);
    return r.simplified();
  }
  Layout layoutOf(const MapInputLayout& l, const Layout& contiguous) const {
    Layout at = contiguous;
    if (l.stride) at.col = strideIndex(*l.stride);
    at.row = l.rowStride ? strideIndex(*l.rowStride) : times(contiguous.row, at.col);
    return at;
  }

  static std::string inName(int k) { return "in" + std::to_string(k); }
  static std::string outName(int k) { return "out" + std::to_string(k); }
  static std::string paramName(int k) { return "scalar" + std::to_string(k); }

  // The column loop(s) of one row (rank 1: of the array), per the tail policy and the target.
  ir::Block columns(const std::string& c) {
    ir::Block out;
    if (!target_.vectorBits) {
      out.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), 1, elements(c, false, "", ""), false, "one element at a time"));
      return out;
    }
    const VecType v = loopType_;
    // A reduction takes the unrolled loops below: several accumulators, and a merge only in the tail.
    if (spec_.tail == TailPolicy::predicated && target_.maskRegisters && target_.scalable && !stageReduces()) {
      if (structureReadAhead(v) >= 0) return governedStructures(c, v);
      ir::Block body;
      body.push_back(whileLt("active" + passTag(), v, sym(c), sym(cols_), false));
      ir::Block rest = elements(c, true, "active" + passTag(), "");
      body.insert(body.end(), rest.begin(), rest.end());
      Stmt loop = ir::forLoop(c, Index::constant(0), sym(cols_), lanesOf(v), std::move(body), false,
                              "one loop governed by whilelt: the last vector is partial, no cleanup");
      loop.coversTail = true;
      out.push_back(std::move(loop));
      note("tail: predicated (whilelt masks on every load and store of the last vector)");
      return out;
    }
    if (dotRouteHere()) {
      ir::Block loops = dotLoops(c);
      out.insert(out.end(), loops.begin(), loops.end());
    } else if (const int unroll = unrollFactor(); unroll > 1 && !(spec_.cols.isStatic() && *spec_.cols.value < int64_t(unroll) * v.lanes)) {
      ir::Block body;
      const int firstTemp = temps_;
      for (int k = 0; k < unroll; ++k) {  // copy k's values are named t<j>_k, the same j in every copy
        temps_ = firstTemp;
        ir::Block copy = elements(c, true, "", "_" + std::to_string(k), lanesOf(v) * k);
        body.insert(body.end(), copy.begin(), copy.end());
      }
      // Rows shorter than a vector skip both loops in one test (a few percent of a 16-element call).
      ir::Block loops;
      loops.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), lanesOf(v) * unroll, std::move(body), true,
                                  "whole vectors, " + std::to_string(unroll) + " per iteration"));
      loops.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), lanesOf(v), elements(c, true, "", ""), true,
                                  "whole vectors, one per iteration"));
      out.push_back(ir::letIndex(c, Index::constant(0)));
      if (spec_.cols.isStatic()) {
        out.insert(out.end(), loops.begin(), loops.end());
      } else {
        out.push_back(ir::ifLess(lanesOf(v) + (-1), sym(cols_), std::move(loops), "at least one whole vector"));
      }
      note("whole vectors: " + std::to_string(unroll) + " per iteration (unrolled), then one per iteration");
    } else if (const int ahead = structureReadAhead(v); ahead >= 0) {
      out.push_back(structureLoop(c, v, ahead));
      // AVX-512's masked tail reads the structures under byte masks (up to a whole vector of
      // lanes): the lane-by-lane whole vector before it would only be slower.
      const bool maskedStructures = target_.module == LoweringModule::x86 && target_.maskRegisters &&
                                    spec_.tail == TailPolicy::predicated && !overlapsLastVector();
      if (!maskedStructures)
        out.push_back(
            ir::forLoop(c, Index::constant(0), sym(cols_), lanesOf(v), elements(c, true, "", ""), true, "whole vectors, strided inputs lane by lane"));
    } else {
      out.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), lanesOf(v), elements(c, true, "", ""), false, "whole vectors"));
    }
    if (spec_.tail == TailPolicy::predicated) {
      const auto maskedTail = [&] {
        ir::Block tail;
        tail.push_back(whileLt("active" + passTag(), v, sym(c), sym(cols_), true));
        ir::Block rest = elements(c, true, "active" + passTag(), "_tail");
        tail.insert(tail.end(), rest.begin(), rest.end());
        return tail;
      };
      if (!overlapsLastVector()) {
        out.push_back(ir::ifLess(sym(c), sym(cols_), maskedTail(), "the rest: one partial vector, its loads and stores masked"));
        note("tail: one predicated partial vector after the whole vectors (nothing outside the arrays is read or written)");
        return out;
      }
      // Rows of at least one vector end with their last whole vector again: one unmasked
      // vector instead of a prefix moved piecewise (AVX2 has no byte masked store, and its
      // 32/64-bit one is microcoded on AMD). The lanes before c are recomputed from the same
      // inputs and rewritten with the same values; outputs are separate arrays (no in_place).
      const int64_t lanes = v.lanes;
      const bool fixed = spec_.cols.isStatic();
      const int64_t cols = fixed ? *spec_.cols.value : 0;
      ir::Block rest;
      if (!fixed || cols >= lanes)
        rest.push_back(ir::ifIndex(sym(cols_), ir::Cmp::ge, Index::constant(lanes),
                                   elements(c, true, "", "_last", (sym(cols_) + Index::constant(-lanes) - sym(c)).simplified()),
                                   "a row of at least one vector: its last whole vector again, ending at the row's end"));
      if (!fixed || cols < lanes)
        rest.push_back(ir::ifIndex(sym(cols_), ir::Cmp::lt, Index::constant(lanes), maskedTail(),
                                   "a row shorter than a vector: one partial vector, its loads and stores masked"));
      out.push_back(ir::ifLess(sym(c), sym(cols_), std::move(rest), "the rest"));
      note("tail: the row's last whole vector again, overlapping the vectors before it (rows shorter than a vector: one "
           "predicated partial vector; nothing outside the arrays is read or written)");
    } else {
      Stmt cleanup = ir::forLoop(c, Index::constant(0), sym(cols_), 1, elements(c, false, "", "_tail"), true, "scalar cleanup");
      out.push_back(std::move(cleanup));
      note("tail: scalar cleanup loop after the whole vectors");
    }
    return out;
  }

  // The lanes of every vector of the pass (loopType_, mixedLanes_): the widest of its arrays and
  // of the values its loops compute (row-uniform parts are computed before them).
  void chooseLanes() {
    std::set<int> widths;
    for (int k : stageInputs()) widths.insert(bitsOf(spec_.mapInputs[size_t(k)].dtype));
    const DType width = stageInputs().empty() ? spec_.mapOutputs[stageOutputs().front()].dtype : spec_.mapInputs[size_t(*stageInputs().begin())].dtype;
    const std::set<const MapExpr*> kept = keptUses();
    std::function<void(const MapExpr&)> walk = [&](const MapExpr& e) {
      widths.insert(bitsOf(e.type));
      if (rowUniform_.count(&e) || kept.count(&e)) return;
      if (e.op == MapOp::math) widths.insert(bitsOf(math::workingType(e.fn, spec_.maxUlp, e.type)));
      for (const MapExpr& a : e.args) walk(a);
    };
    for (size_t k : stageOutputs()) widths.insert(bitsOf(spec_.mapOutputs[k].dtype)), walk(spec_.mapOutputs[k].expr);
    mixedLanes_ = 0;
    if (!target_.vectorBits) return;
    if (widths.size() > 1) {
      // x86: AVX-512 converts between all widths in one instruction (vpmov[s|us], vpmovsx/zx,
      // vcvtpd2ps, vcvtqq2ps), AVX2 narrows by packs; NEON sxtl/uxtl, xtn/sqxtn/uqxtn; SVE keeps
      // narrow values unpacked in the widest type's containers (extending loads, truncating stores).
      mixedLanes_ = target_.vector(integerOf(DType::u8, *widths.rbegin())).lanes;
      note("element widths differ (" + std::to_string(*widths.begin()) + " to " + std::to_string(*widths.rbegin()) + " bits): " +
           (target_.scalable ? "vectors have the widest type's lane count; narrower values are unpacked, one per container of the widest width"
                             : std::to_string(mixedLanes_) + " lanes per vector, the widest type's; narrower values fill the low lanes of their registers"));
    }
    loopType_ = vectorOf(mixedLanes_ ? integerOf(DType::u8, *widths.rbegin()) : width);
  }

  // ---- passes (stages): outputs that read a reduction's row value run after it ----
  // The outputs the kernel computes (an internal element-wise output is part of the expressions
  // that name it), and those of the current pass.
  std::vector<size_t> computed() const {
    std::vector<size_t> out;
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k)
      if (spec_.mapOutputs[k].reduce || !spec_.mapOutputs[k].internal) out.push_back(k);
    return out;
  }
  std::vector<size_t> stageOutputs() const {
    std::vector<size_t> out;
    for (size_t k : computed())
      if (spec_.mapOutputs[k].stage == stage_) out.push_back(k);
    return out;
  }
  std::set<int> stageInputs() const {
    std::set<int> used;
    const std::set<const MapExpr*> kept = keptUses();
    for (size_t k : stageOutputs()) inputsReadOutside(spec_.mapOutputs[k].expr, kept, used);
    return used;
  }
  // Reductions per row (the column loops' accumulators); a reduction over the rows (axis 0) is
  // updated in its array like an element-wise output.
  static bool rowReduction(const MapOutput& o) { return o.reduce && !o.columns; }
  bool stageReduces() const {
    for (size_t k : stageOutputs())
      if (rowReduction(spec_.mapOutputs[k])) return true;
    return false;
  }
  bool stageReducesColumns() const {
    for (size_t k : stageOutputs())
      if (spec_.mapOutputs[k].columns) return true;
    return false;
  }

  // ---- reductions over the rows (axis 0): out[c] = op(out[c], value) in every row, in row order ----
  // Before the rows: every column's value is the op's identity (what an empty matrix gives).
  ir::Block columnReductionsStart() {
    ir::Block body;
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k) {
      const MapOutput& o = spec_.mapOutputs[k];
      if (!o.columns) continue;
      const std::string name = "start" + std::to_string(k);
      Stmt z = identity(name, k, oneLane(o.dtype));
      body.push_back(z);
      Stmt store = ir::op(OpKind::Store, "", oneLane(o.dtype), {name});
      store.tensor = outName(int(k));
      store.index = sym("c0");
      body.push_back(store);
    }
    ir::Block out;
    if (!body.empty()) out.push_back(ir::forLoop("c0", Index::constant(0), sym(cols_), 1, std::move(body), false, "each column starts at the identity"));
    return out;
  }
  // After the rows: a mean's sums divided by the number of rows.
  ir::Block columnMeans() {
    ir::Block body;
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k) {
      const MapOutput& o = spec_.mapOutputs[k];
      if (!o.columns || !o.mean) continue;
      const std::string sum = "sum" + std::to_string(k);
      Stmt load = ir::op(OpKind::Load, sum, oneLane(o.dtype));
      load.declare = true;
      load.tensor = outName(int(k));
      load.index = sym("c1");
      body.push_back(load);
      Stmt d = ir::op(OpKind::Div, sum, oneLane(o.dtype), {sum, extentAsFloat(rows_, "rows", o.dtype)});
      body.push_back(d);
      Stmt store = ir::op(OpKind::Store, "", oneLane(o.dtype), {sum});
      store.tensor = outName(int(k));
      store.index = sym("c1");
      body.push_back(store);
    }
    ir::Block out;
    if (!body.empty()) out.push_back(ir::forLoop("c1", Index::constant(0), sym(cols_), 1, std::move(body), false, "means: the sums over the rows divided by their number"));
    return out;
  }
  // Vector accumulators per reduction: one per copy of the unrolled loop body.
  int accumulatorsPerReduction() const { return target_.vectorBits ? std::max(1, unrollFactor()) : 1; }
  std::string accName(size_t k, int copy) const { return "acc" + std::to_string(k) + "_" + (copy < 0 ? "s" : std::to_string(copy)); }
  static std::string rowValueName(size_t k) { return "rowval" + std::to_string(k); }
  VecType accType(size_t k, bool vector) const { return typeFor(spec_.mapOutputs[k].dtype, vector); }

  // The identity of a reduction output's op, splat.
  Stmt identity(const std::string& dst, size_t k, VecType t) const {
    Stmt z = ir::op(OpKind::Splat, dst, t);
    z.declare = true;
    z.literal = identityLiteral(*spec_.mapOutputs[k].reduce, spec_.mapOutputs[k].dtype);
    return z;
  }

  // Before a pass's loops: its accumulators, and the row values it reads, splat.
  ir::Block stagePrologue() {
    ir::Block out;
    for (size_t k : stageOutputs()) {
      if (!rowReduction(spec_.mapOutputs[k])) continue;
      if (target_.vectorBits)
        for (int q = 0; q < accumulatorsPerReduction(); ++q) out.push_back(identity(accName(k, q), k, accType(k, true)));
      if (const DotTerm* t = dotTermOf(k); t && t->correction)
        for (int q = 0; q < accumulatorsPerReduction(); ++q) out.push_back(identity(correctionName(k, q), k, accType(k, true)));
      if (!target_.vectorBits || spec_.tail == TailPolicy::scalar) out.push_back(identity(accName(k, target_.vectorBits ? -1 : 0), k, accType(k, false)));
    }
    // Row-uniform parts, once per row: one-lane values, splat for the vector loops.
    for (auto& [e, names] : rowUniformOrder_) {
      Values one{false, "_row", {}};
      names->scalar = e->op == MapOp::row_value ? rowValueName(size_t(e->input)) : value(*e, one, out, true);
      if (!target_.vectorBits) continue;
      names->vector = names->scalar + "_x" + (stage_ ? std::to_string(stage_ + 1) : "");
      Stmt s = ir::op(OpKind::Splat, names->vector, vectorOf(e->type), {names->scalar});
      s.declare = true;
      out.push_back(s);
    }
    return out;
  }

  // The parts of the pass's expressions that are the same for the whole row: the largest
  // subexpressions that read a row value and no input (rsqrt(var + eps), 1 / sum), computed once
  // per row before the loops instead of in every element.
  struct RowUniformNames {
    std::string scalar, vector;
  };
  void findRowUniform() {
    rowUniform_.clear();
    rowUniformOrder_.clear();
    std::map<std::string, const MapExpr*> byText;
    std::map<const MapExpr*, const MapExpr*> sameAs;
    std::function<std::pair<bool, bool>(const MapExpr&)> uniform = [&](const MapExpr& e) {  // (no input, reads a row value)
      bool none = e.op != MapOp::input, row = e.op == MapOp::row_value;
      for (const MapExpr& a : e.args) {
        const auto [n, r] = uniform(a);
        none = none && n, row = row || r;
      }
      return std::pair{none, row};
    };
    const std::set<const MapExpr*> kept = keptUses();
    std::function<void(const MapExpr&)> walk = [&](const MapExpr& e) {
      if (kept.count(&e)) return;  // read back from an array (see keptUses)
      if (e.op != MapOp::lt && e.op != MapOp::le && e.op != MapOp::gt && e.op != MapOp::ge && e.op != MapOp::eq && e.op != MapOp::ne)
        if (const auto [none, row] = uniform(e); none && row) {
          // Equal parts (mu in (x - mu) * (x - mu)) share one value.
          const std::string key = toString(e, spec_.mapInputs, spec_.mapParams) + "|" + std::string(nameOf(e.type));
          if (!byText.count(key)) {
            byText[key] = &e;
            rowUniformOrder_.push_back({&e, nullptr});
          }
          sameAs[&e] = byText[key];
          return;
        }
      for (const MapExpr& a : e.args) walk(a);
    };
    for (size_t k : stageOutputs()) walk(spec_.mapOutputs[k].expr);
    for (auto& [e, names] : rowUniformOrder_) names = &rowUniform_[e];
    for (const auto& [e, first] : sameAs) rowUniform_.try_emplace(e);  // every part, the equal ones too (chooseLanes skips them)
    sameAs_ = std::move(sameAs);
  }

  // After a pass's loops: each reduction's accumulators folded into its row value (stored unless internal).
  ir::Block stageEpilogue() {
    ir::Block out;
    for (size_t k : stageOutputs()) {
      const MapOutput& o = spec_.mapOutputs[k];
      if (!rowReduction(o)) continue;
      const std::string rv = rowValueName(k);
      const VecType one = accType(k, false);
      auto combine = [&](const std::string& dst, const std::string& a, const std::string& b, VecType t, bool declare) {
        Stmt s = ir::op(OpKind::Binary, dst, t, {a, b});
        s.rop = *o.reduce;
        s.declare = declare;
        out.push_back(s);
      };
      if (target_.vectorBits) {
        const int n = accumulatorsPerReduction();
        for (int step = 1; step < n; step *= 2)  // a balanced tree
          for (int q = 0; q + step < n; q += 2 * step) combine(accName(k, q), accName(k, q), accName(k, q + step), accType(k, true), false);
        if (const DotTerm* t = dotTermOf(k); t && t->correction) {
          for (int step = 1; step < n; step *= 2)
            for (int q = 0; q + step < n; q += 2 * step) combine(correctionName(k, q), correctionName(k, q), correctionName(k, q + step), accType(k, true), false);
          ir::Block fix = dotCorrection(*t, accName(k, 0), correctionName(k, 0), accType(k, true));
          out.insert(out.end(), fix.begin(), fix.end());
        }
        // A value narrower than the loop's lanes is a fractional vector (the low lanes of its
        // register, or one per wide container on SVE): widened to the widest type first, so the fold
        // reads exactly its lanes. Exact for integers (the wrap-around and the order of the low bits
        // are the same) and min/max; a float sum's lanes add up in f64, rounded once.
        std::string lanes = accName(k, 0);
        DType laneType = o.dtype;
        if (mixedLanes_ && bitsOf(o.dtype) < bitsOf(loopType_.elem)) {
          laneType = isFloat(o.dtype) ? DType::f64 : integerOf(o.dtype, bitsOf(loopType_.elem));
          convertSteps(lanes, o.dtype, laneType, ConvMode::plain, lanes + "_wide", Values{true, "", {}}, out);
          lanes += "_wide";
        }
        const std::string folded = laneType == o.dtype ? rv : rv + "_wide";
        Stmt r = ir::op(OpKind::ReduceLanes, folded, {laneType, 1}, {lanes});
        r.declare = true;
        r.rop = *o.reduce;
        // Float sums on Arm fold adjacent lanes first (faddv / faddp order).
        r.pairwise = isFloat(laneType) && *o.reduce == ReduceOp::add && target_.pairwiseLaneSums();
        out.push_back(r);
        if (folded != rv) {
          Stmt c = ir::op(OpKind::Convert, rv, one, {folded});
          c.declare = true;
          c.conv = ConvMode::wrap;
          if (isFloat(o.dtype)) c.conv = ConvMode::plain;
          out.push_back(c);
        }
        if (spec_.tail == TailPolicy::scalar) combine(rv, rv, accName(k, -1), one, false);
      } else {
        Stmt s = ir::op(OpKind::Splat, rv, one, {accName(k, 0)});
        s.declare = true;
        out.push_back(s);
      }
      if (o.mean) {
        Stmt d = ir::op(OpKind::Div, rv, one, {rv, columnCount(o.dtype)});
        out.push_back(d);
      }
      if (!o.internal) {
        Stmt store = ir::op(OpKind::Store, "", one, {rv});
        store.tensor = outName(int(k));
        store.index = spec_.rank == 2 ? sym("r") : Index::constant(0);
        out.push_back(store);
      }
    }
    return out;
  }

  // The number of columns as a one-lane float of type t (a mean's divisor), computed once.
  std::string columnCount(DType t) { return extentAsFloat(cols_, "count", t); }
  // An extent (columns, rows) as a one-lane float of type t, computed once before the loops.
  std::string extentAsFloat(const std::string& extent, const std::string& tag, DType t) {
    const std::string name = tag + "_" + std::string(nameOf(t)), whole = tag + "_i64";
    for (const Stmt& s : constants_)
      if (s.dst == name) return name;
    Stmt n = ir::op(OpKind::SetIndex, whole, {DType::i64, 1});
    n.declare = true;
    n.index = sym(extent);
    bool have = false;
    for (const Stmt& s : constants_) have = have || s.dst == whole;
    if (!have) constants_.push_back(n);
    Stmt c = ir::op(OpKind::Convert, name, {t, 1}, {whole});
    c.declare = true;
    constants_.push_back(c);
    return name;
  }

  // The runtime element strides of the inputs the outputs read and of the pass's strided outputs
  // (distinct, inputs first, in order).
  std::vector<std::string> runtimeStrides() const {
    std::vector<std::string> out;
    auto add = [&](const Index& col) {
      if (col.constantValue()) return;
      const std::string s = col.terms.front().symbols.front();
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    };
    for (int k : stageInputs()) add(layouts_[size_t(k)].col);
    for (size_t k : stageOutputs()) add(outLayouts_[k].col);
    return out;
  }

  // Loop versioning on runtime strides (as compilers version loops on a symbolic stride): where
  // every runtime stride is 1 the inputs are contiguous and load whole vectors; otherwise they are
  // gathered. One stride: two copies of the column loops; two: three (the first == 1 tests the
  // second); more: none, everything gathered.
  ir::Block versions(const std::string& c, std::vector<std::string> strides) {
    ir::Block gathered = columns(c);
    if (strides.empty() || strides.size() > 2 || !(ir::contains(gathered, OpKind::GatherRows) || ir::contains(gathered, OpKind::ScatterRows)))
      return gathered;
    const std::string s = strides.front();
    strides.erase(strides.begin());
    const std::vector<Layout> saved = layouts_, savedOut = outLayouts_;
    for (std::vector<Layout>* all : {&layouts_, &outLayouts_})
      for (Layout& l : *all)
        if (!l.col.constantValue() && l.col.terms.front().symbols.front() == s) l.col = Index::constant(1);
    ir::Block unit = versions(c, strides);
    layouts_ = saved;
    outLayouts_ = savedOut;
    ir::Block out;
    const bool scatters = ir::contains(gathered, OpKind::ScatterRows);
    out.push_back(ir::ifIndex(sym(s), ir::Cmp::eq, Index::constant(1), std::move(unit),
                              scatters ? "contiguous (a stride of 1): whole-vector loads and stores" : "contiguous input (a stride of 1): whole-vector loads"));
    out.push_back(ir::ifIndex(sym(s), ir::Cmp::ne, Index::constant(1), std::move(gathered),
                              scatters ? "strided: gathered loads, scattered stores" : "strided input: gathered lanes"));
    return out;
  }

  // AVX2 ends a row of at least one vector with its last whole vector again (columns() above),
  // unless an output is in place: then an element rewritten after its input was overwritten
  // would be computed twice. Measured on Zen 3 (docs/benchmarks.md, "Overlapped AVX2 tails").
  // A reduction would count the overlapping lanes twice; a kept term read back would already be
  // overwritten.
  bool overlapsLastVector() const {
    if (target_.module != LoweringModule::x86 || target_.maskRegisters || stageReduces() || stageReducesColumns() || !keptUses().empty())
      return false;
    for (size_t k : stageOutputs())
      if (spec_.mapOutputs[k].inPlace >= 0) return false;
    return true;
  }

  // Whole vectors per iteration of the main loop. x86 only (see the top of the file): 4 hides the
  // loop overhead and keeps two loads in flight per cycle; 2 when more arrays share the registers
  // (AVX2 has 16). A static row shorter than the unrolled step gets the one-vector loop only.
  // A pass with reductions unrolls on every target: each copy has its own accumulators, so the
  // additions of one copy do not wait for another's (the reduce family's 4 accumulators).
  int unrollFactor() const {
    if (!target_.vectorBits) return 1;
    const bool reduces = stageReduces();
    if (target_.module != LoweringModule::x86 && !reduces) return 1;
    // Strided inputs: every lane is a scalar load, so the loop overhead is noise and unrolled copies only add
    // live address registers (measured: simdgen_bench_gather).
    if (!reduces) {
      for (const Layout& l : layouts_)
        if (const auto col = l.col.constantValue(); !col || *col > 1) return 1;
      for (size_t k : stageOutputs())  // likewise every lane of a strided output is a scalar store
        if (outLayouts_[k].col.constantValue() != int64_t{1}) return 1;
    }
    return stageInputs().size() + stageOutputs().size() <= 3 ? 4 : 2;
  }

  Stmt whileLt(const std::string& dst, VecType t, Index lo, Index hi, bool partial) {
    Stmt s = ir::op(OpKind::WhileLt, dst, t.mask());
    s.declare = true;
    s.lo = std::move(lo);
    s.hi = std::move(hi);
    s.partialOnly = partial;
    return s;
  }

  // Structure loads (ld2/ld3/ld4, one member kept) for inputs whose stride is a constant 2 to 4:
  // the structures loaded beyond the vector's lanes, or -1 when no input qualifies. Chosen by
  // LLVM's models of Neoverse N2/V2/V1, A64FX and Cortex-A72 (bench/arm_icount/strided_mca.py,
  // docs/benchmarks.md "Strided inputs on Arm"):
  // - 8- and 16-bit lanes always: NEON loads them one at a time otherwise, SVE gathers them in
  //   32-bit containers and narrows (3-20x the cycles);
  // - NEON 32-bit lanes at a stride of 2 or 4 (1.3-2.7x); at 3, and 64-bit lanes, GCC already
  //   turns the lane loads into pair loads and moves that run as fast or faster;
  // - SVE 32/64-bit lanes at a stride of 2 only (1.3-2.5x); ld3w/ld4w run slower than a gather
  //   on V1 (0.7-0.9x) and ld4d on V2 (0.6x).
  // A NEON fractional vector (narrow values of a mixed-width plan) takes the low lanes of a 64-
  // or 128-bit load; SVE keeps such values one per wide container, where no structure load fits.
  // - x86 8- and 16-bit lanes of vectors of 64 to 512 bits, at a stride of 2 to 4: whole 16-byte
  //   chunks de-interleaved by vpshufb (the lowering's shuffledLoads; x86 has no byte gather, and
  //   otherwise inserts every lane on its own).
  int structureReadAhead(VecType v, int input = -1) const {
    const bool sve = target_.module == LoweringModule::sve, x86 = target_.module == LoweringModule::x86;
    if ((target_.module != LoweringModule::neon && !sve && !x86) || v.lanes < 2) return -1;
    const std::set<int> used = stageInputs();
    int ahead = -1;
    for (int k : used) {
      const auto stride = layouts_[size_t(k)].col.constantValue();
      if ((input >= 0 && k != input) || !stride || *stride < 2 || *stride > 4) continue;
      const int bits = bitsOf(spec_.mapInputs[size_t(k)].dtype);
      if (x86) {
        if (bits <= 16 && v.lanes * bits >= 64 && v.lanes * bits <= 512) ahead = std::max(ahead, 0);
        continue;
      }
      if (sve) {
        if (v.lanes * bits == 128 && (bits <= 16 || *stride == 2)) ahead = 0;
        continue;
      }
      if (bits == 64 || (bits == 32 && *stride == 3)) continue;
      ahead = std::max(ahead, (v.lanes * bits <= 64 ? 64 : 128) / bits - v.lanes);
    }
    return ahead;
  }

  // The whole-vector loop whose strided inputs are structure loads. They read past their last
  // lane (the rest of its structure, and whole structures up to the load's lane count), so the
  // loop stops while `ahead` + 1 columns of the row are left; the caller's next loop gathers them.
  Stmt structureLoop(const std::string& c, VecType v, int ahead) {
    const std::string left = ahead ? std::to_string(ahead + 1) + " columns" : std::string("one column");
    const std::string how = target_.module == LoweringModule::x86
                                ? "8/16-bit lanes from whole 16-byte loads de-interleaved by vpshufb (32-bit and wider lanes as before)"
                                : "structure loads (ld2/ld3/ld4) keep one member";
    note("strided inputs with a constant stride of 2 to 4: " + how + ", except in the last " + (ahead ? left : std::string("column")) +
         " of a row");
    return ir::forLoop(c, Index::constant(0), sym(cols_) + (-1 - ahead), lanesOf(v), elements(c, true, "", "", Index::constant(0), true), false,
                       "whole vectors, strided inputs as structure loads (stops " + left + " early)");
  }

  // SVE, strided inputs read as structures (structureReadAhead is 0 there: a predicated svld3
  // reads the active lanes' structures only): one loop governed by whilelt(c, cols - 1) for every
  // column but the last, whose structure may end past the row's last element, then that column
  // alone under a one-lane predicate (none when the row is empty), where lane 0 of a contiguous
  // load is the element a gather would read.
  ir::Block governedStructures(const std::string& c, VecType v) {
    note("strided inputs with a constant stride of 2 to 4: predicated structure loads (ld2/ld3/ld4) keep one member, except in the last column of a row");
    note("tail: predicated (whilelt masks on every load and store of the last vector)");
    ir::Block out, body;
    body.push_back(whileLt("active" + passTag(), v, sym(c), sym(cols_) + (-1), false));
    ir::Block rest = elements(c, true, "active" + passTag(), "", Index::constant(0), true);
    body.insert(body.end(), rest.begin(), rest.end());
    Stmt loop = ir::forLoop(c, Index::constant(0), sym(cols_) + (-1), lanesOf(v), std::move(body), false,
                            "governed by whilelt: strided inputs as structure loads, every column but the last");
    loop.coversTail = true;
    out.push_back(std::move(loop));
    const std::string last = c + "_last";
    out.push_back(ir::letMax(last, sym(cols_) + (-1), Index::constant(0)));
    out.push_back(whileLt("last_lane" + passTag(), v, sym(last), sym(cols_), false));
    ir::Block one = elements(last, true, "last_lane" + passTag(), "_last", Index::constant(0), false, true);
    out.insert(out.end(), one.begin(), one.end());
    return out;
  }

  // Loads of the inputs used, every output's expression, stores: all loads come before any store,
  // so an output may be the same array as an input (in_place).
  // `offset`: elements past column c (the copies of an unrolled body). `structures`: the loop
  // leaves enough of the row for the strided inputs' structure loads (structureReadAhead).
  // `lane0`: `pred` has at most lane 0 active, so every input is a (predicated) contiguous load.
  ir::Block elements(const std::string& c, bool vector, const std::string& pred, const std::string& suffix,
                     const Index& offset = Index::constant(0), bool structures = false, bool lane0 = false) {
    ir::Block out;
    const Index at = ((spec_.rank == 2 ? Index::symbol("r").times(stride_) + sym(c) : sym(c)) + offset).simplified();
    const std::set<int> used = stageInputs();
    Values vals{vector, suffix, {}};
    for (int k : used) {
      const DType t = spec_.mapInputs[size_t(k)].dtype;
      const std::string name = spec_.mapInputs[size_t(k)].name + "_v" + suffix + passTag();
      const Layout& l = layouts_[size_t(k)];
      const bool contiguous = l.col.constantValue() == 1, repeated = l.col.constantValue() == 0;
      // Lane j reads element c + j: contiguous columns load a vector, a stride of 0 repeats one
      // element (under a predicate that may have no lane active, the element may not exist: then
      // it is a gather, which reads active lanes only), any other stride gathers (the lowerings
      // choose how: docs/design.md).
      const OpKind kind = !vector || contiguous || lane0 ? OpKind::Load : repeated && pred.empty() ? OpKind::LoadBroadcast : OpKind::GatherRows;
      Stmt load = ir::op(kind, name, typeFor(t, vector));
      load.declare = true;
      load.tensor = inName(k);
      load.index = ((spec_.rank == 2 ? times(Index::symbol("r"), l.row) : Index::constant(0)) + times(sym(c) + offset, l.col)).simplified();
      if (load.op == OpKind::GatherRows) load.stride = l.col;
      if (load.op == OpKind::GatherRows && structures) load.readAhead = structureReadAhead(load.type, k);
      if (load.op != OpKind::LoadBroadcast) load.pred = pred;
      out.push_back(load);
      vals.inputs[k] = name;
    }
    for (const KeptTerm& t : kept_) {
      if (stage_ <= t.from || stage_ > t.to) continue;
      Stmt load = ir::op(OpKind::Load, spec_.mapOutputs[t.output].name + "_kept" + suffix + passTag(), typeFor(spec_.mapOutputs[t.output].dtype, vector));
      load.declare = true;
      load.tensor = outName(int(t.output));
      load.index = at;
      load.pred = pred;
      out.push_back(load);
      for (const MapExpr* e : t.uses) vals.kept[e] = load.dst;
    }
    std::map<size_t, std::string> results;
    std::map<size_t, std::pair<std::string, std::string>> products;  // fusedProduct: the factors
    for (size_t k : stageOutputs()) {
      const MapExpr& e = spec_.mapOutputs[k].expr;
      if (fusedProduct(spec_.mapOutputs[k])) products[k] = {value(e.args[0], vals, out), value(e.args[1], vals, out)};
      else results[k] = value(e, vals, out);
    }
    for (const KeptTerm& t : kept_) {
      if (t.from != stage_) continue;
      Stmt store = ir::op(OpKind::Store, "", typeFor(spec_.mapOutputs[t.output].dtype, vector), {results.at(t.reduction)});
      store.tensor = outName(int(t.output));
      store.index = at;
      store.pred = pred;
      out.push_back(store);
    }
    for (size_t k : stageOutputs()) {
      const MapOutput& o = spec_.mapOutputs[k];
      const VecType t = typeFor(o.dtype, vector);
      if (products.count(k)) {  // acc = acc + a * b rounded once, inactive lanes kept
        Stmt f = ir::op(OpKind::Fma, accName(k, accCopy(vector, suffix)), t, {accName(k, accCopy(vector, suffix)), products[k].first, products[k].second});
        if (!pred.empty()) f.pred = predicateFor(pred, loopType_.elem, o.dtype, f.dst + "_in", out);
        out.push_back(f);
        continue;
      }
      if (rowReduction(o)) {
        accumulate(k, results[k], t, vector, pred, suffix, out);
        continue;
      }
      if (o.columns) {  // out[c] = op(out[c], value): loaded and stored under the same predicate
        Stmt load = ir::op(OpKind::Load, o.name + "_sofar" + suffix + passTag(), t);
        load.declare = true;
        load.tensor = outName(int(k));
        load.index = (sym(c) + offset).simplified();
        load.pred = pred;
        out.push_back(load);
        const bool nanLast = isFloat(o.dtype) && (*o.reduce == ReduceOp::min || *o.reduce == ReduceOp::max);
        Stmt s = ir::op(OpKind::Binary, o.name + "_next" + suffix + passTag(), t,
                        nanLast ? std::vector<std::string>{results[k], load.dst} : std::vector<std::string>{load.dst, results[k]});
        s.rop = *o.reduce;
        s.declare = true;
        out.push_back(s);
        Stmt store = ir::op(OpKind::Store, "", t, {s.dst});
        store.tensor = outName(int(k));
        store.index = load.index;
        store.pred = pred;
        out.push_back(store);
        continue;
      }
      // A strided output (a column stride other than 1) scatters its lanes.
      const Layout& l = outLayouts_[k];
      const bool strided = vector && l.col.constantValue() != int64_t{1};
      Stmt store = ir::op(strided ? OpKind::ScatterRows : OpKind::Store, "", t, {results[k]});
      store.tensor = outName(int(k));
      store.index = ((spec_.rank == 2 ? times(Index::symbol("r"), l.row) : Index::constant(0)) + times(sym(c) + offset, l.col)).simplified();
      if (strided) store.stride = l.col;
      store.pred = pred;
      out.push_back(store);
    }
    return out;
  }

  // ---- integer sums of widened products through dot-product instructions (plan/map_dot.h) ----
  // The pass's route, where every output is such a sum and its inputs can be contiguous (a
  // runtime stride gets a contiguous version of the loops, see versions()).
  void chooseDotRoute() {
    dot_.reset();
    for (int k : stageInputs())
      if (const auto col = layouts_[size_t(k)].col.constantValue(); col && *col != 1) return;
    if (runtimeStrides().size() > 2) return;
    dot_ = wideningDotRoute(spec_, stageOutputs(), target_);
    if (dot_ && vectorOf(DType::i32) != target_.vector(DType::i32)) dot_.reset();  // i32 is the pass's widest type
  }
  const DotTerm* dotTermOf(size_t k) const {
    if (!dot_) return nullptr;
    for (const DotTerm& t : dot_->terms)
      if (t.output == k) return &t;
    return nullptr;
  }
  std::string correctionName(size_t k, int copy) const { return "corr" + std::to_string(k) + "_" + std::to_string(copy); }
  bool dotRouteHere() const {
    if (!dot_) return false;
    for (int k : stageInputs())
      if (layouts_[size_t(k)].col.constantValue() != int64_t{1}) return false;
    return true;
  }
  // Whole groups of the narrow inputs through the instructions, unrolled (a pair of accumulators
  // per copy when corrected), then one at a time; the rest of the row (less than one step) goes on
  // through the ordinary one-vector loop and tail, into the same accumulators.
  ir::Block dotLoops(const std::string& c) {
    const VecType acc = vectorOf(DType::i32);
    const Index step = dotStepElements(*dot_, acc);
    const int unroll = accumulatorsPerReduction();
    auto stepOf = [&](int q, const std::string& suffix) {
      DotStepNames names;
      names.accType = acc;
      names.input = [&](int k) { return spec_.mapInputs[size_t(k)].name; };
      names.address = [&, q](int k) {
        const Layout& l = layouts_[size_t(k)];
        return ((spec_.rank == 2 ? times(Index::symbol("r"), l.row) : Index::constant(0)) + sym(c) + step * q).simplified();
      };
      names.constant = [&](const std::string& literal, VecType t) { return constant(literal, t); };
      names.accumulator = [&, q](size_t k) { return accName(k, q); };
      names.correction = [&, q](size_t k) { return correctionName(k, q); };
      names.suffix = suffix + passTag();
      return dotStep(*dot_, spec_, names);
    };
    ir::Block body;
    for (int q = 0; q < unroll; ++q) {
      ir::Block one = stepOf(q, "_" + std::to_string(q));
      body.insert(body.end(), one.begin(), one.end());
    }
    const std::string what = std::to_string(dot_->group) + " elements per i32 lane per " + dot_->instruction;
    ir::Block out;
    out.push_back(ir::letIndex(c, Index::constant(0)));
    out.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), step * unroll, std::move(body), true,
                              "whole steps of " + what + ", " + std::to_string(unroll) + " per iteration"));
    if (unroll > 1) out.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), step, stepOf(0, "_one"), true, "whole steps, one per iteration"));
    out.push_back(ir::forLoop(c, Index::constant(0), sym(cols_), lanesOf(loopType_), elements(c, true, "", ""), true,
                              "whole vectors, one per iteration"));
    note("integer sums of products: " + what + " (" + std::to_string(unroll) +
         " steps per iteration, then one); the rest of the row one vector at a time, then the tail");
    return out;
  }

  // The subexpressions of the pass's outputs that it reads back from a kept term's array (plan/map_kept.h).
  std::set<const MapExpr*> keptUses() const {
    std::set<const MapExpr*> out;
    for (const KeptTerm& t : kept_)
      if (stage_ > t.from && stage_ <= t.to) out.insert(t.uses.begin(), t.uses.end());
    return out;
  }

  // Names a pass declares where an earlier pass's may still be in scope (static extents flatten a
  // tail's `if` into the row): the second pass's get _p2, ...
  std::string passTag() const { return stage_ ? "_p" + std::to_string(stage_ + 1) : ""; }

  // Which accumulator a copy of the loop body adds to (see accumulate).
  int accCopy(bool vector, const std::string& suffix) const {
    if (!vector && target_.vectorBits) return -1;
    if (suffix.size() > 1 && suffix[0] == '_' && std::isdigit(static_cast<unsigned char>(suffix[1]))) return std::stoi(suffix.substr(1));
    return 0;
  }

  // A float sum of products (a dot product) adds each product with a fused multiply-add where the
  // target has one: one rounding less per term, as BLAS does (the sum is reassociated anyway).
  // The scalar variant keeps the C loop's operations and order (fma is a library call on x86).
  bool fusedProduct(const MapOutput& o) const {
    return rowReduction(o) && o.reduce == ReduceOp::add && isFloat(o.dtype) && o.expr.op == MapOp::mul && target_.vectorBits && fusedMultiplyAdd();
  }

  // acc = op(acc, x) for reduction output k: the vector accumulator of this copy of the loop body
  // (suffix _<copy>; others 0), or on a vector target's one-lane cleanup the scalar one. Lanes
  // outside `pred` take the identity first. Float min/max keep the accumulator where x is NaN
  // (Binary's b wins NaN): NaN elements are ignored, as by kind reduce.
  void accumulate(size_t k, std::string x, VecType t, bool vector, const std::string& pred, const std::string& suffix, ir::Block& out) {
    const MapOutput& o = spec_.mapOutputs[k];
    const std::string acc = accName(k, accCopy(vector, suffix));
    if (!pred.empty()) {
      // Names per output: two reductions of one value (min and max of `a`) each select their own identity.
      const std::string named = x + (k ? "_r" + std::to_string(k) : "");
      const std::string p = predicateFor(pred, loopType_.elem, o.dtype, named + "_in", out);
      const std::string active = named + "_active";
      Stmt sel = ir::op(OpKind::Select, active, t, {p, x, constant(identityLiteral(*o.reduce, o.dtype), t)});
      sel.declare = true;
      out.push_back(sel);
      x = sel.dst;
    }
    const bool nanLast = isFloat(o.dtype) && (*o.reduce == ReduceOp::min || *o.reduce == ReduceOp::max);
    Stmt s = ir::op(OpKind::Binary, acc, t, nanLast ? std::vector<std::string>{x, acc} : std::vector<std::string>{acc, x});
    s.rop = *o.reduce;
    out.push_back(s);
  }

  struct Values {
    bool vector;
    std::string suffix;
    std::map<int, std::string> inputs;
    std::map<const MapExpr*, std::string> kept = {};  // kept terms read back (keptUses)
  };

  VecType typeFor(DType t, bool vector) const { return vector ? vectorOf(t) : oneLane(t); }

  // Whether the target multiplies and adds with one rounding in every variant: the math functions
  // use it where it is there (the scalar variant runs the same ops without it on every CPU).
  bool fusedMultiplyAdd() const {
    if (target_.module == LoweringModule::x86) return target_.maskRegisters || target_.has("fma");
    return target_.module == LoweringModule::neon || target_.module == LoweringModule::sve || target_.module == LoweringModule::none;
  }

  // A literal, splat once before the loops (one name per literal and type).
  std::string constant(const std::string& literal, VecType t) {
    const std::string key = literal + "|" + ir::toString(t);
    if (auto it = constantNames_.find(key); it != constantNames_.end()) return it->second;
    const std::string name = "k" + std::to_string(constantNames_.size()) + (t.lanes == 1 ? "_s" : "");
    Stmt s = ir::op(OpKind::Splat, name, t);
    s.declare = true;
    s.literal = literal;
    constants_.push_back(s);
    constantNames_[key] = name;
    return name;
  }

  // The variable holding e's value, after the ops that compute it (appended to `out`).
  // `hoisting`: e is a row-uniform part being computed before the loops.
  std::string value(const MapExpr& e, const Values& v, ir::Block& out, bool hoisting = false) {
    const VecType t = typeFor(e.type, v.vector);
    if (e.op == MapOp::literal) return constant(e.text, t);
    if (e.op == MapOp::param) return constant(paramName(e.input), t);  // a splat of the runtime value
    if (e.op == MapOp::input) return v.inputs.at(e.input);
    if (auto it = v.kept.find(&e); it != v.kept.end()) return it->second;
    if (auto it = sameAs_.find(&e); it != sameAs_.end() && !hoisting) {
      const RowUniformNames& n = rowUniform_.at(it->second);
      return v.vector ? n.vector : n.scalar;
    }
    if (e.op == MapOp::row_value) return rowValueName(size_t(e.input));  // inside a row-uniform part: one lane
    std::vector<std::string> args;
    for (const MapExpr& a : e.args) args.push_back(value(a, v, out));
    if ((e.op == MapOp::shl || e.op == MapOp::shr) && e.count == 0) return args[0];
    const std::string dst = "t" + std::to_string(temps_++) + v.suffix;
    if (e.op == MapOp::math) {
      note(math::describeMathFn(e.fn, spec_.maxUlp, e.type));
      // In a wider type where the dtype's own arithmetic cannot keep the tier (rounded once on
      // the way back).
      const DType w = math::workingType(e.fn, spec_.maxUlp, e.type);
      std::string x = args[0];
      if (w != e.type) convertSteps(args[0], e.type, w, ConvMode::plain, x = dst + "_in", v, out);
      math::MathOps ops(typeFor(w, v.vector), [this](const std::string& literal, VecType type) { return constant(literal, type); },
                        dst + "_", fusedMultiplyAdd(), out);
      // AVX-512 scales by 2^n in one instruction, with the rounding of the two-step form, and
      // splits a float into exponent and significand in two.
      ops.allowExponentOps(v.vector && target_.module == LoweringModule::x86 && target_.maskRegisters);
      const std::string y = math::emitMathFn(e.fn, spec_.maxUlp, e.type, x, ops);
      if (w == e.type) return y;
      convertSteps(y, w, e.type, ConvMode::plain, dst, v, out);
      return dst;
    }
    if (e.op == MapOp::select && v.vector) args[0] = predicateFor(args[0], e.args[0].args[0].type, e.type, dst, out);
    if (e.op == MapOp::convert) {
      // The IR's plain conversion is the C cast; a float to an integer is always defined here.
      const ConvMode mode = e.mode == ConvMode::plain && isFloat(e.args[0].type) && !isFloat(e.type) ? ConvMode::trunc : e.mode;
      convertSteps(args[0], e.args[0].type, e.type, mode, dst, v, out);
      return dst;
    }
    Stmt s = ir::op(OpKind::Binary, dst, t, args);
    s.declare = true;
    switch (e.op) {
      case MapOp::add: s.rop = ReduceOp::add; break;
      case MapOp::mul: s.rop = ReduceOp::mul; break;
      case MapOp::min: s.rop = ReduceOp::min; break;
      case MapOp::max: s.rop = ReduceOp::max; break;
      case MapOp::sub: s.op = OpKind::Sub; break;
      case MapOp::div: s.op = OpKind::Div; break;
      case MapOp::neg: s.op = OpKind::Neg; break;
      case MapOp::abs: s.op = OpKind::Abs; break;
      case MapOp::sqrt: s.op = OpKind::Sqrt; break;
      case MapOp::add_sat: s.op = OpKind::AddSat; break;
      case MapOp::sub_sat: s.op = OpKind::SubSat; break;
      case MapOp::avg_round: s.op = OpKind::AvgRound; break;
      case MapOp::abs_diff: s.op = OpKind::AbsDiff; break;
      case MapOp::popcount: s.op = OpKind::Popcount; break;
      case MapOp::round:
        s.op = OpKind::Round;
        s.conv = e.mode;
        break;
      case MapOp::fma:  // fma(a, b, c) = a * b + c: the IR's accumulator comes first
        s.op = OpKind::Fma;
        s.args = {args[2], args[0], args[1]};
        break;
      case MapOp::select: s.op = OpKind::Select; break;
      case MapOp::bit_and: s.rop = ReduceOp::bit_and; break;
      case MapOp::bit_or: s.rop = ReduceOp::bit_or; break;
      case MapOp::bit_xor: s.rop = ReduceOp::bit_xor; break;
      case MapOp::bit_not:  // ~a = a ^ all ones
        s.rop = ReduceOp::bit_xor;
        s.args.push_back(constant(allOnes(e.type), t));
        break;
      case MapOp::shl:
      case MapOp::shr:
        s.op = e.op == MapOp::shl ? OpKind::ShiftLeft : OpKind::ShiftRight;
        s.part = e.count;
        break;
      default:  // a comparison: a predicate over lanes of its operands' type
        s.op = OpKind::Compare;
        s.cmp = cmpOf(e.op);
        s.type = t.mask();
        break;
    }
    out.push_back(s);
    return dst;
  }

  // The predicate p (over lanes of `from`) as one over lanes of `to`. A k-mask governs lanes of any
  // width; AVX2 and NEON predicates are vectors of their element width, so a comparison of one
  // width selecting values of another goes through integers: all-ones or zero lanes, narrowed
  // (wrap) or widened (sign), compared with zero again.
  std::string predicateFor(const std::string& p, DType from, DType to, const std::string& dst, ir::Block& out) {
    if (bitsOf(from) == bitsOf(to) || target_.maskRegisters) return p;
    const VecType wide = vectorOf(integerOf(DType::i8, bitsOf(from))), narrow = vectorOf(integerOf(DType::i8, bitsOf(to)));
    auto op = [&](OpKind k, const std::string& name, VecType t, std::vector<std::string> args) {
      Stmt s = ir::op(k, name, t, std::move(args));
      s.declare = true;
      s.conv = ConvMode::wrap;
      out.push_back(s);
      return name;
    };
    const std::string ones = op(OpKind::Select, dst + "_m", wide, {p, constant("-1", wide), constant("0", wide)});
    const std::string lanes = op(bitsOf(to) < bitsOf(from) ? OpKind::Convert : OpKind::Extend, dst + "_mw", narrow, {ones});
    Stmt cmp = ir::op(OpKind::Compare, dst + "_p", narrow.mask(), {lanes, constant("0", narrow)});
    cmp.declare = true;
    cmp.cmp = ir::Cmp::ne;
    out.push_back(cmp);
    return cmp.dst;
  }

  // dst = convert(x: from -> to, mode), as steps every lowering has one instruction (or a short
  // fixed sequence) for: conversions between types of one width, integer widening by the source's
  // signedness (extend), integer narrowing (wrap or sat), f32 <-> f64, and 64-bit integers to f32
  // (one rounding: through f64 would round twice). Widening is exact, so it comes first; a float
  // to a narrower integer rounds to the integer of its own width (signed where unsigned conversion
  // is emulated, AVX2: it holds every narrower range; saturating) and then saturates again, which clamps to the same value. One-lane plans
  // convert in one C statement.
  void convertSteps(const std::string& x, DType from, DType to, ConvMode mode, const std::string& dst, const Values& v,
                    ir::Block& out) {
    auto step = [&](OpKind k, const std::string& src, DType t, ConvMode m, const std::string& name) {
      Stmt s = ir::op(k, name, typeFor(t, v.vector), {src});
      s.declare = true;
      s.conv = m;
      out.push_back(s);
      return name;
    };
    const int fb = bitsOf(from), tb = bitsOf(to);
    if (!v.vector || fb == tb || (isFloat(to) && !isFloat(from) && fb > tb)) {
      step(OpKind::Convert, x, to, mode, dst);
      return;
    }
    const std::string mid = dst + "_w";
    if (fb < tb) {  // widen exactly to the destination's width, then convert within it
      // To a float through the signed integer of its width: it holds every narrower value, and
      // signed conversion is native everywhere (AVX2 emulates unsigned).
      const DType wide = isFloat(from) ? DType::f64 : integerOf(isFloat(to) ? DType::i8 : from, tb);
      if (wide == to) {
        step(OpKind::Extend, x, to, ConvMode::plain, dst);
        return;
      }
      step(OpKind::Extend, x, wide, ConvMode::plain, mid);
      step(OpKind::Convert, mid, to, mode, dst);
      return;
    }
    if (isFloat(from) && !isFloat(to)) {  // round to the signed integer of the float's width, then narrow saturating
      // Unsigned when the target converts to unsigned natively (AVX-512, Arm): one op fewer.
      const bool unsignedNative = !(target_.module == LoweringModule::x86 && !target_.maskRegisters);
      step(OpKind::Convert, x, integerOf(unsignedNative ? to : DType::i8, fb), mode, mid);
      if (target_.module == LoweringModule::x86 && target_.maskRegisters) {
        // AVX-512: clamped to `to`'s range as floats, then narrowed by its low bits (vpmovdb).
        out.back().saturateTo = to;
        step(OpKind::Convert, mid, to, ConvMode::wrap, dst);
        return;
      }
      step(OpKind::Convert, mid, to, ConvMode::sat, dst);
      return;
    }
    step(OpKind::Convert, x, to, mode, dst);  // integer narrowing (wrap / sat), f64 -> f32
  }

  // "exp(x), log(x)": the math functions the outputs call, in order of first use.
  std::string mathFunctionsUsed() const {
    std::vector<std::string> names;
    std::function<void(const MapExpr&)> walk = [&](const MapExpr& e) {
      if (e.op == MapOp::math) {
        const std::string n = std::string(nameOf(e.fn)) + "(x)";
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
      }
      for (const MapExpr& a : e.args) walk(a);
    };
    for (const MapOutput& o : spec_.mapOutputs) walk(o.expr);
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  // "x * y" or "sum over the row of (x * y)".
  std::string formulaOf(const MapOutput& o) const {
    if (!o.reduce) return o.exprText;
    const std::string over = o.columns ? " over the column, row by row, of (" : spec_.rank == 2 ? " over the row of (" : " over all elements of (";
    if (o.mean) return "mean" + over + o.exprText + ")";
    const char* names[] = {"sum", "product", "min", "max", "and", "or", "xor"};
    return std::string(names[int(*o.reduce)]) + over + o.exprText + ")";
  }

  void note(const std::string& line) {  // once: versioned plans build their loops more than once
    if (std::find(plan_.summary.begin(), plan_.summary.end(), line) == plan_.summary.end()) plan_.summary.push_back(line);
  }

  void document() {
    std::string formula;
    for (const MapOutput& o : spec_.mapOutputs) formula += (formula.empty() ? "" : "; ") + o.name + " = " + formulaOf(o);
    plan_.overview = "map: " + formula;
    plan_.semantics.push_back({"tail", std::string(nameOf(spec_.tail))});
    // The shape of the inputs and element-wise outputs (a kernel may have only reductions).
    if (spec_.rank == 2) plan_.semantics.push_back({"layout.rows", rows_});
    plan_.semantics.push_back({"layout.cols", cols_});
    if (spec_.rank == 2) plan_.semantics.push_back({"layout.row_stride", stride_});
    bool math = false;
    for (const MapOutput& o : spec_.mapOutputs) math = math || usesOp(o.expr, MapOp::math);
    if (math) plan_.semantics.push_back({"max_ulp", std::to_string(spec_.maxUlp)});
    for (size_t k = 0; k < spec_.mapInputs.size(); ++k) plan_.semantics.push_back({"name." + inName(int(k)), spec_.mapInputs[k].name});
    for (size_t k = 0; k < spec_.mapParams.size(); ++k) plan_.semantics.push_back({"name." + paramName(int(k)), spec_.mapParams[k].name});
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k) {
      const MapOutput& o = spec_.mapOutputs[k];
      plan_.semantics.push_back({"name." + outName(int(k)), o.name});
      plan_.semantics.push_back({"expr." + outName(int(k)), o.exprText});
      // Reductions and internal values (no tensor: their dtype is here) for the test driver's reference.
      if (o.reduce) plan_.semantics.push_back({"reduce." + outName(int(k)), o.mean ? "mean" : std::string(nameOf(*o.reduce))});
      if (o.internal) plan_.semantics.push_back({"internal." + outName(int(k)), std::string(nameOf(o.dtype))});
      // Products added by fma on the targets that have one (semantics are the same for every variant).
      if (rowReduction(o) && o.reduce == ReduceOp::add && isFloat(o.dtype) && o.expr.op == MapOp::mul)
        plan_.semantics.push_back({"fused." + outName(int(k)), "1"});
      if (o.columns) plan_.semantics.push_back({"axis." + outName(int(k)), "0"});
      if (spec_.mapOutputs[k].inPlace >= 0) plan_.semantics.push_back({"in_place." + outName(int(k)), inName(spec_.mapOutputs[k].inPlace)});
    }
    auto& d = plan_.apiDoc;
    auto text = [](const Extent& e) { return e.isStatic() ? std::to_string(*e.value) : e.name; };
    const std::string where = spec_.rank == 2 ? "[r, c]" : "[i]";
    const bool reduces = std::any_of(spec_.mapOutputs.begin(), spec_.mapOutputs.end(), [](const MapOutput& o) { return o.reduce.has_value(); });
    d.push_back("/// " + spec_.name + (reduces ? ": over " : ": element-wise over ") +
                (spec_.rank == 2 ? text(spec_.rows) + " x " + text(spec_.cols) : text(spec_.cols)) + " elements,");
    for (const MapOutput& o : spec_.mapOutputs)
      d.push_back("///   " + std::string(o.internal ? "(internal) " : "") + o.name + (o.columns ? std::string("[c]") : o.reduce ? std::string(spec_.rank == 2 ? "[r]" : "[0]") : where) +
                  " = " + formulaOf(o) + "   (" + std::string(nameOf(o.dtype)) + ")");
    if (std::any_of(spec_.mapOutputs.begin(), spec_.mapOutputs.end(), [](const MapOutput& o) { return o.reduce.has_value(); })) {
      d.push_back("/// A reduction (sum, max, ...) gives one value per " + std::string(spec_.rank == 2 ? "row" : "call") +
                  "; later outputs may name it. Float sums are reassociated");
      d.push_back("/// (vector lanes, several accumulators, products fused): within (cols + 1) * u * sum(|terms|) of the exact sum (u = 2^-24 f32, 2^-53 f64);");
      if (std::any_of(spec_.mapOutputs.begin(), spec_.mapOutputs.end(), [](const MapOutput& o) { return o.columns; }))
        d.push_back("/// a reduction over the rows ([c]) adds in row order, each term rounded first (the plain loop's result, no fma);");
      d.push_back("/// float min/max ignore NaN terms; an empty row gives the op's identity (sum 0, max -inf, ...; mean NaN).");
    }
    for (const MapInputName& p : spec_.mapParams)
      d.push_back("///   " + p.name + ": a runtime " + std::string(nameOf(p.dtype)) + ", the same for every element");
    if (!spec_.description.empty()) d.push_back("/// " + spec_.description);
    d.push_back("///");
    const std::string rowStride = text(spec_.rowStride ? *spec_.rowStride : spec_.cols);
    bool strided = false, stridedOutputs = false;
    for (const MapInputLayout& l : spec_.mapInputLayouts) strided = strided || l.strided();
    for (const MapInputLayout& l : spec_.mapOutputLayouts) stridedOutputs = stridedOutputs || l.strided();
    if (spec_.rank == 2)
      d.push_back("/// Element [r, c] of every " +
                  std::string(stridedOutputs ? "other array" : strided ? "output and other input" : "array") + " is at r * " + rowStride + " + c.");
    auto layoutLine = [&](const std::string& name, const MapInputLayout& l, const std::string& note) {
      if (!l.strided()) return;
      const std::string col = l.stride ? text(*l.stride) : "1";
      const std::string row = l.rowStride ? text(*l.rowStride) : col == "1" ? rowStride : rowStride + " * " + col;
      d.push_back("/// " + name + (spec_.rank == 2 ? "[r, c] is at r * " + row + " + c" : "[i] is at i") + " * " + col + note);
    };
    for (size_t k = 0; k < spec_.mapInputs.size(); ++k)
      layoutLine(spec_.mapInputs[k].name, spec_.mapInputLayouts[k], " (a stride of 0 repeats one element; inputs may overlap).");
    for (size_t k = 0; k < spec_.mapOutputs.size(); ++k)
      layoutLine(spec_.mapOutputs[k].name, spec_.mapOutputLayouts[k], " (runtime strides must give every element its own place).");
    d.push_back("/// Integers wrap on overflow (abs(MIN) = MIN = -MIN). min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b:");
    d.push_back("/// b on ties and NaN, so relu(NaN) = 0 and clamp(NaN, lo, hi) = lo. fma rounds once.");
    if (const std::string fns = mathFunctionsUsed(); !fns.empty())
      d.push_back("/// " + fns + ": within " + std::to_string(spec_.maxUlp) + " ULP of the exact result (max_ulp), with C's special values (docs/math.md).");
    bool converts = false;
    for (const MapOutput& o : spec_.mapOutputs) converts = converts || usesConvert(o.expr);
    if (converts) {
      d.push_back("/// convert(x, T[, mode]): integers widen by x's signedness; wrap keeps the low bits, sat clamps to T's range;");
      d.push_back("/// a float to an integer rounds by trunc (default), nearest (ties to even), floor or ceil, saturates out");
      d.push_back("/// of range and gives 0 for NaN; to a float rounds to nearest, ties to even.");
      std::set<int> widths;
      for (const MapInputName& in : spec_.mapInputs) widths.insert(bitsOf(in.dtype));
      for (const MapOutput& o : spec_.mapOutputs) widths.insert(bitsOf(o.dtype)), widthsOf(o.expr, spec_.maxUlp, widths);
      if (widths.size() > 1)
        d.push_back("/// Element widths differ: vectors have the widest type's lane count (narrower values in part of a register).");
    }
    d.push_back("/// No alignment is required. Nothing outside the arrays is read or written; an empty shape writes nothing.");
    std::string shared;
    for (const MapOutput& o : spec_.mapOutputs)
      if (o.inPlace >= 0) shared += (shared.empty() ? "" : ", ") + o.name + " may be " + spec_.mapInputs[size_t(o.inPlace)].name;
    if (stridedOutputs)  // interleaved outputs (the channels of one RGB buffer) share memory but no element
      d.push_back("/// Aliasing: no element of an output may be an element of an input or of another output" +
                  (shared.empty() ? std::string(" (strided outputs may interleave).") : "; " + shared + " (the same pointer: in place)."));
    else
      d.push_back("/// Aliasing: outputs must not overlap inputs or each other" +
                  (shared.empty() ? std::string(".") : "; " + shared + " (the same pointer: in place)."));
  }

  const KernelSpec& spec_;
  const Target& target_;
  ir::Plan plan_;
  std::string rows_, cols_, stride_;
  std::vector<ir::Param> extents_;
  std::vector<Layout> layouts_;  // one per input
  std::vector<Layout> outLayouts_;  // one per output (reductions: unused)
  ir::Block constants_;
  std::map<std::string, std::string> constantNames_;
  int temps_ = 0;
  int mixedLanes_ = 0;  // lanes of every vector when element widths differ (0: each type's own)
  VecType loopType_;    // the vector whose lanes the column loops step by
  int stage_ = 0;       // the pass being built
  std::map<const MapExpr*, RowUniformNames> rowUniform_;  // the pass's row-uniform parts (findRowUniform)
  std::vector<std::pair<const MapExpr*, RowUniformNames*>> rowUniformOrder_;
  std::map<const MapExpr*, const MapExpr*> sameAs_;  // each row-uniform part -> the first equal one
  std::optional<DotRoute> dot_;
  std::vector<KeptTerm> kept_;   // reduction terms stored for a later pass (plan/map_kept.h)  // the pass's sums of widened products, through dot instructions
};

}  // namespace

ir::Plan buildMapPlan(const KernelSpec& spec, const Target& target) { return MapBuilder(spec, target).build(); }

}  // namespace simdgen
