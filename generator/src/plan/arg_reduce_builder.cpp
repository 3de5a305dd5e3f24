// SPDX-License-Identifier: Apache-2.0
// arg_reduce: the extreme value of each row and its first or last index, exactly as the scalar
// loops of LLVM's min/max-with-index review (`if (x > best)` keeps the first index of the maximum,
// `if (x >= best)` the last; argmin mirrors them).
//
// Block scheme: each block of the row is reduced with plain vector min/max (the speed of a
// reduction), and only a block that beats the best so far is scanned again (in L1) for the first
// or last lane equal to its extreme. Indices are 64-bit scalars computed from the block position,
// so there is no vector of indices, no sentinel, and every length the index type can hold works.
#include "plan/arg_reduce_builder.h"

#include <algorithm>
#include <cstdint>

#include "ir/simplify.h"
#include "plan/api_docs.h"
#include "plan/builder_base.h"

namespace simdgen {

namespace {

struct ArgPlanner {
  Builder& b;
  const KernelSpec& s;
  VecType in, nanMaskT;
  int k;          // accumulators per block
  int64_t block;  // elements per block

  explicit ArgPlanner(Builder& builder) : b(builder), s(builder.spec) {
    in = b.vec(s.input);
    nanMaskT = Builder::withLanes(bitsOf(s.input) == 64 ? DType::i64 : DType::i32, in.lanes, in);
    k = s.schedule.accumulators.value_or(4);
    // Whole blocks have no tail: a block is a multiple of k vectors at every vector length.
    const int64_t step = int64_t(k) * b.maxLanes(in);
    const int64_t wanted = s.schedule.block.value_or(8192 / bytesOf(s.input));  // 8 KiB: rescans hit L1
    block = std::max<int64_t>(step, wanted / step * step);
  }

  bool propagate() const { return isFloat(s.input) && s.nan == NanPolicy::propagate; }
  // The tail of the last block is predicated; scalable targets do that for tail "none" too (the
  // promised divisibility by the lanes cannot be checked against a length known only at run time).
  bool predicatedTail() const { return s.tail == TailPolicy::predicated || (s.tail == TailPolicy::none && in.scalable); }
  // "beats": strict for the first index, non-strict for the last.
  ir::Cmp beats() const {
    if (s.op == ReduceOp::max) return s.lastIndex ? ir::Cmp::ge : ir::Cmp::gt;
    return s.lastIndex ? ir::Cmp::le : ir::Cmp::lt;
  }

  Stmt binary(ReduceOp op, const std::string& dst, VecType t, const std::string& a, const std::string& c) {
    Stmt x = b.make(OpKind::Binary, dst, t, {a, c}, false);
    x.rop = op;
    return x;
  }

  // The columns [from, to) of a block: vector loops, tail, then the block's extreme `m`.
  ir::Block blockBody(const Index& from, const Index& to, bool partial) {
    ir::Block out;
    const Index row = b.rowStart("i");
    std::vector<std::string> accs;
    for (int q = 0; q < k; ++q) {
      accs.push_back("acc" + std::to_string(q));
      out.push_back(b.splatIdentity(accs.back(), in));
    }
    auto consume = [&](ir::Block& body, const std::string& x, const std::string& acc) {
      body.push_back(b.combine(acc, x, in));
      if (propagate()) {
        body.push_back(b.make(OpKind::NaNMask, x + "_nan", nanMaskT, {x}));
        body.push_back(binary(ReduceOp::bit_or, "nan_lanes", nanMaskT, x + "_nan", "nan_lanes"));
      }
    };
    ir::Block mainBody;
    for (int q = 0; q < k; ++q) {
      std::string x = "x" + std::to_string(q);
      mainBody.push_back(b.load(x, in, row + b.sym("j") + Builder::lanesOf(in) * q));
      consume(mainBody, x, accs[q]);
    }
    out.push_back(ir::forLoop("j", from, to, Builder::lanesOf(in) * k, std::move(mainBody), false,
                              std::to_string(k) + " vectors per step"));
    if (partial && k > 1) {
      ir::Block one;
      one.push_back(b.load("x0", in, row + b.sym("j")));
      consume(one, "x0", accs[0]);
      out.push_back(ir::forLoop("j", {}, to, Builder::lanesOf(in), std::move(one), true));
    }
    if (partial && in.lanes > 1 && predicatedTail()) {
      ir::Block tail;
      tail.push_back(b.whileLt("tail_lanes", in, b.sym("j"), to, true));
      tail.push_back(b.maskedLoad("tail", in, row + b.sym("j"), "tail_lanes"));
      consume(tail, "tail", accs[0]);
      out.push_back(ir::ifLess(b.sym("j"), to, std::move(tail), "predicated tail: identity lanes never win"));
    }
    for (size_t step = 1; step < accs.size(); step *= 2)
      for (size_t q = 0; q + step < accs.size(); q += 2 * step) out.push_back(b.combine(accs[q], accs[q + step], in));
    if (in.lanes > 1) {
      out.push_back(b.make(OpKind::ReduceLanes, "block_best", {s.input, 1}, {accs[0]}));
    } else {
      Stmt copy = b.make(OpKind::Convert, "block_best", {s.input, 1}, {accs[0]});
      out.push_back(copy);
    }
    if (partial && in.lanes > 1 && s.tail == TailPolicy::scalar) {
      ir::Block body;
      body.push_back(b.load("x", {s.input, 1}, row + b.sym("j")));
      body.push_back(b.combine("block_best", "x", {s.input, 1}));
      if (propagate()) {
        body.push_back(b.make(OpKind::NaNMask, "x_nan", {nanMaskT.elem, 1}, {"x"}));
        body.push_back(binary(ReduceOp::bit_or, "nan_tail", {nanMaskT.elem, 1}, "x_nan", "nan_tail"));
      }
      out.push_back(ir::forLoop("j", {}, to, 1, std::move(body), true, "scalar tail"));
    }
    // A block that beats the best only records where it is: the index is located once, in the
    // last such block, after the loop (monotonic data would otherwise rescan every block). A block
    // whose extreme is the identity may owe it to NaN or padding lanes alone: it is checked now.
    const VecType i64s{DType::i64, 1};
    ir::Block beat, lazy, eager, update;
    Stmt lo = b.make(OpKind::SetIndex, "best_lo", i64s, {}, false);
    lo.index = from;
    Stmt hi = b.make(OpKind::SetIndex, "best_hi", i64s, {}, false);
    hi.index = to;
    lazy.push_back(b.make(OpKind::Convert, "best", {s.input, 1}, {"block_best"}, false));
    lazy.push_back(lo);
    lazy.push_back(hi);
    Stmt locate = b.make(OpKind::LocateEqual, "at", i64s, {"block_best"});
    locate.index = row;
    locate.lo = from;
    locate.hi = to;
    locate.part = s.lastIndex ? 1 : 0;
    eager.push_back(locate);
    update.push_back(b.make(OpKind::Convert, "best_index", i64s, {"at"}, false));
    update.push_back(b.load("best", {s.input, 1}, row + b.sym("at")));
    update.back().declare = false;
    Stmt none = b.make(OpKind::SetIndex, "best_lo", i64s, {}, false);
    none.index = Index::constant(-1);
    update.push_back(none);
    eager.push_back(ir::ifValues("at", ir::Cmp::ne, "no_index", std::move(update)));
    beat.push_back(ir::ifValues("block_best", ir::Cmp::ne, "identity", std::move(lazy)));
    beat.push_back(ir::ifValues("block_best", ir::Cmp::eq, "identity", std::move(eager), "NaN or padding lanes?"));
    out.push_back(ir::ifValues("block_best", beats(), "best", std::move(beat),
                               "the block beats the best so far: remember it"));
    return out;
  }

  ir::Block row() {
    ir::Block r;
    const VecType v1{s.input, 1}, i1{DType::i64, 1};
    const bool defaultInit = !s.initialValue;
    Stmt best = b.make(OpKind::Splat, "best", v1);
    best.literal = defaultInit ? identityLiteral(s.op, s.input) : *s.initialValue;
    r.push_back(best);
    Stmt idx = b.make(OpKind::Splat, "best_index", i1);
    idx.literal = defaultInit ? "-1"
                  : *s.initialIndex == INT64_MIN ? "(-9223372036854775807ll - 1)"
                                                 : std::to_string(*s.initialIndex) + "ll";
    r.push_back(idx);
    Stmt none = b.make(OpKind::Splat, "no_index", i1);
    none.literal = "-1";
    r.push_back(none);
    Stmt ident = b.make(OpKind::Splat, "identity", v1);
    ident.literal = identityLiteral(s.op, s.input);
    r.push_back(ident);
    for (const char* pos : {"best_lo", "best_hi"}) {
      Stmt p = b.make(OpKind::Splat, pos, i1);  // the block holding the best; -1: none yet
      p.literal = "-1";
      r.push_back(p);
    }
    if (propagate()) {
      Stmt z = b.make(OpKind::Splat, "nan_lanes", nanMaskT);
      z.literal = "0";
      r.push_back(z);
      if (s.tail == TailPolicy::scalar && in.lanes > 1) {
        Stmt t = b.make(OpKind::Splat, "nan_tail", {nanMaskT.elem, 1});
        t.literal = "0";
        r.push_back(t);
      }
    }
    const Index blk = b.sym("blk");
    r.push_back(ir::forLoop("blk", Index::constant(0), b.sym(b.cols), block, blockBody(blk, blk + block, false), false,
                            "blocks of " + std::to_string(block) + " elements"));
    r.push_back(ir::ifLess(b.sym("blk"), b.sym(b.cols), blockBody(blk, b.sym(b.cols), true), "the last, partial block"));
    const Index row = b.rowStart("i");
    {
      ir::Block find;
      Stmt locate = b.make(OpKind::LocateEqual, "at", i1, {"best"});
      locate.index = row;
      locate.lo = b.sym("best_lo");
      locate.hi = b.sym("best_hi");
      locate.part = s.lastIndex ? 1 : 0;
      find.push_back(locate);
      find.push_back(b.make(OpKind::Convert, "best_index", i1, {"at"}, false));
      find.push_back(b.load("best", v1, row + b.sym("at")));  // the element itself (+0.0 vs -0.0)
      find.back().declare = false;
      r.push_back(ir::ifValues("best_lo", ir::Cmp::ne, "no_index", std::move(find),
                               "locate the index once, in the last block that beat the best"));
    }
    if (defaultInit && !s.lastIndex) {
      // Nothing beat the identity: every element equals it (or is NaN). Its first occurrence wins.
      ir::Block fix;
      Stmt locate = b.make(OpKind::LocateEqual, "at", i1, {"best"});
      locate.index = row;
      locate.lo = Index::constant(0);
      locate.hi = b.sym(b.cols);
      fix.push_back(locate);
      fix.push_back(b.make(OpKind::Convert, "best_index", i1, {"at"}, false));
      r.push_back(ir::ifValues("best_index", ir::Cmp::eq, "no_index", std::move(fix),
                               "no element beat the identity: the first element equal to it, if any"));
    }
    if (propagate()) {
      // NaN wins: the first NaN of the row, found by one scan only when a NaN was seen.
      r.push_back(b.make(nanMaskT.lanes > 1 ? OpKind::ReduceLanes : OpKind::Convert, "nan_seen", {nanMaskT.elem, 1},
                         {"nan_lanes"}));
      r.back().rop = ReduceOp::bit_or;
      if (s.tail == TailPolicy::scalar && in.lanes > 1) r.push_back(binary(ReduceOp::bit_or, "nan_seen", {nanMaskT.elem, 1}, "nan_tail", "nan_seen"));
      Stmt zero = b.make(OpKind::Splat, "no_nan", {nanMaskT.elem, 1});
      zero.literal = "0";
      r.push_back(zero);
      ir::Block nan;
      Stmt locate = b.make(OpKind::LocateNaN, "at", i1);
      locate.index = row;
      locate.lo = Index::constant(0);
      locate.hi = b.sym(b.cols);
      nan.push_back(locate);
      nan.push_back(b.make(OpKind::Convert, "best_index", i1, {"at"}, false));
      nan.push_back(b.load("best", v1, row + b.sym("at")));
      nan.back().declare = false;
      r.push_back(ir::ifValues("nan_seen", ir::Cmp::ne, "no_nan", std::move(nan), "nan: propagate"));
    }
    Stmt sv = b.store("best", v1, b.sym("i"));
    sv.tensor = "values";
    r.push_back(sv);
    std::string index = "best_index";
    if (s.indexType != DType::i64) {
      index = "best_index_out";
      r.push_back(b.make(OpKind::Convert, index, {s.indexType, 1}, {"best_index"}));
    }
    Stmt si = b.store(index, {s.indexType, 1}, b.sym("i"));
    si.tensor = "indices";
    r.push_back(si);
    return {ir::forLoop("i", Index::constant(0), b.sym(b.rows), 1, std::move(r))};
  }
};

}  // namespace

ir::Plan buildArgReducePlan(const KernelSpec& spec, const Target& target) {
  Builder b(spec, target);
  b.addOutput("values", spec.input, b.sym(b.rows));
  b.addOutput("indices", spec.indexType, b.sym(b.rows));
  b.plan.strategy = "blocks";
  b.plan.apiDoc = argReduceApiDoc(spec);
  ArgPlanner p(b);
  b.plan.semantics = {{"op", spec.op == ReduceOp::max ? "argmax" : "argmin"},
                      {"index", spec.lastIndex ? "last" : "first"},
                      {"nan", spec.nan == NanPolicy::propagate ? "propagate" : "ignore"},
                      {"block", std::to_string(p.block)}};
  if (spec.initialText) {
    b.plan.semantics.push_back({"initial_value", *spec.initialText});
    b.plan.semantics.push_back({"initial_index", std::to_string(spec.initialIndex.value_or(0))});
  }
  if (spec.tail == TailPolicy::none && !p.in.scalable && *spec.cols.value % (int64_t(p.k) * p.in.lanes))
    throw PlanError("tail \"none\": cols = " + std::to_string(*spec.cols.value) + " is not a multiple of " +
                    std::to_string(p.k * p.in.lanes) + " (accumulators x lanes of " + target.spelling +
                    "); use tail \"predicated\" or \"scalar\"",
                    "/tail");
  b.note(std::string(spec.op == ReduceOp::max ? "argmax" : "argmin") + ", " + (spec.lastIndex ? "last" : "first") +
         " index: blocks of " + std::to_string(p.block) + " elements reduced with vector " + std::string(nameOf(spec.op)) +
         "; the index is located once, in the last block that beat the best");
  if (isFloat(spec.input))
    b.note(spec.nan == NanPolicy::propagate ? "NaN: the first NaN wins (one scan, only when a NaN was seen)"
                                            : "NaN: ignored (never compares greater or equal)");
  b.plan.body = p.row();
  ir::removeDeadCode(b.plan);
  if (auto problems = b.plan.verify(); !problems.empty())
    throw std::logic_error("internal error: arg_reduce plan for " + target.spelling + " fails verification: " + problems.front());
  return b.plan;
}

}  // namespace simdgen
