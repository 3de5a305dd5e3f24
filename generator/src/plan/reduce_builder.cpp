// SPDX-License-Identifier: Apache-2.0
// The `reduce` family: row reductions (three strategies from the IREE proposal) and column
// reductions. Each strategy is written once; targets differ only in lane counts and in the
// capabilities they report (dot products, masked tails), never in kernel logic.
#include "plan/reduce_builder.h"

#include <algorithm>
#include <optional>

#include "ir/simplify.h"
#include "plan/api_docs.h"
#include "plan/builder_base.h"

namespace simdgen {

using ir::Index;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

Strategy resolveStrategy(const KernelSpec& spec) {
  if (spec.strategy != Strategy::automatic) return spec.strategy;
  if (spec.order == FloatOrder::sequential && isFloat(spec.input)) return Strategy::inner_parallel;
  return Strategy::vector_accumulator;
}

namespace {

// Rows shorter than a threshold are reduced in blocks of rows by default (one accumulator per
// row, one fold network per block); longer rows get accumulators of their own. Where the input
// lives decides the threshold (measured on Zen 4, B/ns, blocks vs per-row):
// - in L1 (<= 32 KiB, 64 rows): blocks win up to 512-byte rows on 512-bit vectors (f32 64 cols
//   161 vs 140, 96 cols 176 vs 158; 128 cols 186 vs 208) and up to 1 KiB on 256-bit vectors
//   (f32 64 cols 188 vs 120, 192 cols 206 vs 184; i8 512 cols 115 vs 96);
// - from L2 (384 rows) the 8 or 16 concurrent row streams cap blocks near 115-120 B/ns, and
//   per-row accumulators win from 4 vectors on (f32 64 cols 137 vs 120 on AVX-512, 127 vs 115
//   on AVX2; i8 256 cols 138 vs 121), so larger inputs keep the 4-vector threshold.
constexpr int64_t kL1Bytes = 32 * 1024;
constexpr int kMultiRowMaxVectors = 4;
int64_t multiRowMaxBytesInL1(const Target& t) { return t.vectorBits >= 512 ? 512 : 1024; }

// How a vector of input lanes is folded into an accumulator (the part that differs between
// same-type reductions, widening conversions and dot-product instructions).
struct Accumulation {
  VecType in, acc;                      // input vector and accumulator types
  std::optional<DotCapability> dot;     // set when a dot-product instruction does the widening
  int parts = 1;                        // Extend parts per input vector (widening without dot)
};

struct RowPlanner {
  Builder& b;
  Accumulation a;
  DType work;  // the type reductions run in before the final conversion

  explicit RowPlanner(Builder& builder) : b(builder) {
    const KernelSpec& s = b.spec;
    work = commutesWithWidening(s.op) ? s.input : s.output;
    a.in = b.vec(s.input);
    if (s.op == ReduceOp::add && s.input != s.output) a.dot = b.target.dot(s.input, s.output);
    if (a.dot) {
      work = a.dot->acc;
      a.acc = Builder::withLanes(work, a.in.lanes / a.dot->group, a.in);
    } else {
      a.acc = b.vec(work);
      a.parts = a.in.lanes / a.acc.lanes;
    }
  }

  // Statements folding input vector `x` into accumulator `acc`.
  void accumulate(ir::Block& out, const std::string& acc, const std::string& x, VecType xt,
                  VecType accT) {
    if (a.dot && xt.lanes > 1) {
      Stmt d = b.make(OpKind::DotAccumulate, acc, accT, {acc, x}, false);
      d.group = a.dot->group;
      out.push_back(d);
      return;
    }
    if (xt.elem == accT.elem) {
      out.push_back(b.combine(acc, x, accT));
      return;
    }
    const int parts = xt.lanes / accT.lanes;
    for (int p = 0; p < parts; ++p) {
      std::string w = x + "_w" + std::to_string(p);
      Stmt e = b.make(xt.lanes == 1 ? OpKind::Convert : OpKind::Extend, w, accT, {x});
      e.part = p;
      out.push_back(e);
      out.push_back(b.combine(acc, w, accT));
    }
  }

  // out[i] = convert(s) for a scalar of the work type.
  void storeScalar(ir::Block& out, const std::string& s, const Index& at) {
    std::string v = s;
    if (work != b.spec.output) {
      v = s + "_out";
      out.push_back(b.make(OpKind::Convert, v, {b.spec.output, 1}, {s}));
    }
    out.push_back(b.store(v, {b.spec.output, 1}, at));
  }

  // A plain scalar loop over the rest of row `rowIdx` from column j, into scalar `sacc`.
  void scalarTail(ir::Block& out, const Index& rowIdx, const std::string& sacc) {
    ir::Block body;
    VecType in1{b.spec.input, 1};
    body.push_back(b.load("x", in1, rowIdx + b.sym("j")));
    accumulate(body, sacc, "x", in1, {work, 1});
    out.push_back(ir::forLoop("j", {}, b.sym(b.cols), 1, std::move(body), true, "scalar tail"));
  }

  bool tailExact() const {
    if (b.spec.tail != TailPolicy::none) return false;
    const int64_t c = *b.spec.cols.value;
    // Scalable vectors: exact only if every vector length divides the row; otherwise the tail is
    // predicated anyway (tail "none" promises divisibility by the target's lanes, unknown here).
    if (a.in.scalable) return c % b.maxLanes(a.in) == 0;
    if (c % a.in.lanes != 0)
      throw PlanError("tail \"none\": cols = " + std::to_string(c) + " is not a multiple of the " +
                      std::to_string(a.in.lanes) + " " + std::string(nameOf(b.spec.input)) +
                      " lanes of " + b.target.spelling + "; use tail \"predicated\" or \"scalar\"",
                      "/tail");
    return true;
  }

  // How the tail's loads read the columns j..cols of a row: `pred` governs them; a row-end read
  // loads the row's last whole vector (in bounds), whose lanes before column j are inactive.
  struct TailRead {
    std::string pred;
    bool rowEnd = false;
  };
  Stmt tailLoad(const std::string& dst, const Index& rowStart, const TailRead& r) const {
    if (!r.rowEnd) return b.maskedLoad(dst, a.in, rowStart + b.sym("j"), r.pred);
    Stmt l = b.maskedLoad(dst, a.in, rowStart + b.sym(b.cols) - Builder::lanesOf(a.in), r.pred);
    l.inBounds = true;
    return l;
  }

  // The vector tail of a row (columns j..cols) for each (accumulator, row start) pair.
  void vectorTail(ir::Block& out, const std::vector<std::pair<std::string, Index>>& rowsAcc) {
    if (tailExact() || b.spec.tail == TailPolicy::scalar || a.in.lanes == 1) return;
    auto loads = [&](const TailRead& read) {
      ir::Block body;
      for (size_t r = 0; r < rowsAcc.size(); ++r) {
        std::string t = "tail" + std::to_string(r);
        body.push_back(tailLoad(t, rowsAcc[r].second, read));
        accumulate(body, rowsAcc[r].first, t, a.in, a.acc);
      }
      return body;
    };
    out.push_back(ir::ifLess(b.sym("j"), b.sym(b.cols), tailBody(loads), "predicated tail: lanes past the row end read the identity"));
  }

  // The tail: loads governed by whilelt(j, cols), or on targets that prefer it (and rows at least
  // one vector long) the row's last whole vector with the already-counted lanes inactive.
  template <class Loads>
  ir::Block tailBody(Loads loads) {
    auto append = [](ir::Block& to, ir::Block more) { to.insert(to.end(), more.begin(), more.end()); };
    ir::Block prefix;
    prefix.push_back(b.whileLt("tail_lanes", a.in, b.sym("j"), b.sym(b.cols), true));
    append(prefix, loads(TailRead{"tail_lanes", false}));
    if (!b.target.rowEndTails(b.spec.input)) return prefix;
    const Index lanes = Builder::lanesOf(a.in);
    ir::Block rowEnd;
    rowEnd.push_back(b.whileLt("counted_lanes", a.in, b.sym(b.cols) - lanes, b.sym("j"), true));
    rowEnd.push_back(b.make(OpKind::Not, "tail_lanes", a.in.mask(), {"counted_lanes"}));
    append(rowEnd, loads(TailRead{"tail_lanes", true}));
    ir::Block body;
    body.push_back(ir::ifLess(lanes - Index::constant(1), b.sym(b.cols), std::move(rowEnd),
                              "the row holds a whole vector: re-read its last one"));
    body.push_back(ir::ifLess(b.sym(b.cols), lanes, std::move(prefix), "shorter rows: only their own lanes are read"));
    return body;
  }

  // dst = the horizontal fold of accumulator v. Float sums on Arm fold adjacent lanes first,
  // the order of faddv / faddp (one instruction on SVE instead of log2(lanes) table lookups).
  Stmt reduceLanes(const std::string& dst, const std::string& v) {
    Stmt r = b.make(OpKind::ReduceLanes, dst, {a.acc.elem, 1}, {v});
    r.pairwise = isFloat(a.acc.elem) && b.spec.op == ReduceOp::add && b.target.pairwiseLaneSums();
    return r;
  }

  // Folds accumulators acc[0..k) into acc[0] as a balanced tree.
  void combineTree(ir::Block& out, const std::vector<std::string>& accs, VecType t) {
    for (size_t step = 1; step < accs.size(); step *= 2)
      for (size_t k = 0; k + step < accs.size(); k += 2 * step)
        out.push_back(b.combine(accs[k], accs[k + step], t));
  }

  // --- vector_accumulator: K vector accumulators per row, one horizontal reduction at the end.
  ir::Block singleRowVectorAccumulator(bool continues) {
    const int k = b.spec.schedule.accumulators.value_or(a.in.lanes == 1 ? 4 : 4);
    const int unroll = b.spec.schedule.unroll.value_or(1);
    ir::Block row;
    std::vector<std::string> accs;
    for (int q = 0; q < k; ++q) {
      accs.push_back("acc" + std::to_string(q));
      row.push_back(b.splatIdentity(accs.back(), a.acc));
    }
    const Index start = b.rowStart("i");
    const int perIter = k * unroll;
    ir::Block mainBody;
    for (int v = 0; v < perIter; ++v) {
      std::string x = "x" + std::to_string(v);
      mainBody.push_back(b.load(x, a.in, start + b.sym("j") + Builder::lanesOf(a.in) * v));
      accumulate(mainBody, accs[v % k], x, a.in, a.acc);
    }
    row.push_back(ir::forLoop("j", Index::constant(0), b.sym(b.cols), Builder::lanesOf(a.in) * perIter,
                              std::move(mainBody), false,
                              std::to_string(perIter) + " vectors per iteration"));
    if (perIter > 1) {
      ir::Block one;
      one.push_back(b.load("x0", a.in, start + b.sym("j")));
      accumulate(one, accs[0], "x0", a.in, a.acc);
      row.push_back(ir::forLoop("j", {}, b.sym(b.cols), Builder::lanesOf(a.in), std::move(one), true,
                                "one vector at a time"));
    }
    // The tail goes to a second accumulator, as hand-written loops do: it starts no dependency on
    // the cleanup loop's acc0, and GCC 12 then copies the loop-carried vpdpbusd accumulators less
    // often (384x500 i8: 8 -> 6 register moves per main-loop iteration; the hand loop has 4).
    vectorTail(row, {{accs[k > 1 ? 1 : 0], start}});
    combineTree(row, accs, a.acc);
    std::string sum = "row_sum";
    if (a.acc.lanes > 1) {
      row.push_back(reduceLanes(sum, accs[0]));
    } else {
      sum = accs[0];
    }
    if (b.spec.tail == TailPolicy::scalar && a.in.lanes > 1) scalarTail(row, start, sum);
    storeScalar(row, sum, b.sym("i"));
    return {ir::forLoop("i", Index::constant(0), b.sym(b.rows), 1, std::move(row), continues,
                        continues ? "remaining rows one at a time" : "")};
  }

  // R rows at once, one accumulator each; their final reductions are combined by a fold network
  // (the seed's "8x16 -> 8" step) so short rows do not pay a full horizontal reduction each.
  bool multiRowApplies() const {
    const int r = b.spec.schedule.rows.value_or(0);
    if (r == 1 || a.acc.lanes < 2 || a.acc.lanes > 16) return false;
    if (a.acc.scalable) return false;  // the fold network needs as many vectors as lanes: a fixed count
    if (bitsOf(a.acc.elem) < 32 || a.acc.elem != b.spec.output) return false;
    if (b.spec.tail == TailPolicy::scalar) return false;
    return true;
  }

  ir::Block multiRowVectorAccumulator() {
    const int rcount = a.acc.lanes;
    ir::Block block, colBody;
    std::vector<std::string> accs;
    std::vector<std::pair<std::string, Index>> rowsAcc;
    for (int r = 0; r < rcount; ++r) {
      accs.push_back("acc_r" + std::to_string(r));
      block.push_back(b.splatIdentity(accs.back(), a.acc));
      rowsAcc.push_back({accs.back(), b.rowStart("i", r)});
    }
    for (int r = 0; r < rcount; ++r) {
      std::string x = "x_r" + std::to_string(r);
      colBody.push_back(b.load(x, a.in, rowsAcc[r].second + b.sym("j")));
      accumulate(colBody, accs[r], x, a.in, a.acc);
    }
    block.push_back(ir::forLoop("j", Index::constant(0), b.sym(b.cols), a.in.lanes, std::move(colBody)));
    vectorTail(block, rowsAcc);
    Stmt rr = b.make(OpKind::ReduceRows, "row_sums", a.acc, {});
    rr.network = ir::FoldNetwork::make(rcount, bitsOf(a.acc.elem), b.target.pairwiseFolds());
    for (int m = 0; m < rcount; ++m) rr.args.push_back(accs[rr.network.inputOrder[m]]);
    block.push_back(rr);
    block.push_back(b.store("row_sums", a.acc, b.sym("i")));
    b.note("rows are reduced " + std::to_string(rcount) + " at a time; their " +
           std::to_string(rcount) + " final horizontal reductions share one fold network (" +
           std::to_string(rr.network.blockLanes.size()) + " stages)");
    return {ir::forLoop("i", Index::constant(0), b.sym(b.rows), rcount, std::move(block), false,
                        std::to_string(rcount) + " rows per block")};
  }

  // --- inner_reduction: a horizontal reduction of every vector into a scalar accumulator.
  ir::Block innerReduction() {
    ir::Block row;
    VecType s1{work, 1};
    row.push_back(b.splatIdentity("row_acc", s1));
    const Index start = b.rowStart("i");
    auto reduceVector = [&](ir::Block& out, Stmt loadStmt) {
      const std::string x = loadStmt.dst;
      out.push_back(std::move(loadStmt));
      std::string v = x;
      if (a.in.lanes > 1) {
        // Float min/max first pass through an identity accumulator so NaN lanes drop out
        // (a NaN folded horizontally would hide the other lanes of its vector).
        const bool nanFilter = isFloat(a.in.elem) && (b.spec.op == ReduceOp::min || b.spec.op == ReduceOp::max);
        if (a.in.elem != a.acc.elem || nanFilter) {
          v = x + "_acc";
          out.push_back(b.splatIdentity(v, a.acc));
          accumulate(out, v, x, a.in, a.acc);
        }
        out.push_back(reduceLanes(x + "_sum", v));
        out.push_back(b.combine("row_acc", x + "_sum", s1));
      } else {
        accumulate(out, "row_acc", x, a.in, s1);
      }
    };
    ir::Block body;
    reduceVector(body, b.load("x", a.in, start + b.sym("j")));
    row.push_back(ir::forLoop("j", Index::constant(0), b.sym(b.cols), Builder::lanesOf(a.in), std::move(body), false,
                              "horizontal reduction every iteration"));
    if (!tailExact() && a.in.lanes > 1) {
      if (b.spec.tail != TailPolicy::scalar) {
        auto loads = [&](const TailRead& read) {
          ir::Block tail;
          reduceVector(tail, tailLoad("tail", start, read));
          return tail;
        };
        row.push_back(ir::ifLess(b.sym("j"), b.sym(b.cols), tailBody(loads), "predicated tail"));
      } else {
        scalarTail(row, start, "row_acc");
      }
    }
    storeScalar(row, "row_acc", b.sym("i"));
    return {ir::forLoop("i", Index::constant(0), b.sym(b.rows), 1, std::move(row))};
  }
};

// --- inner_parallel: lane = row. Each lane walks its row left to right (the only strategy that
// keeps a float reduction in sequential order). Lanes hold the output type, so every op of the
// reduction (and its wrap-around) is the output type's.
ir::Block innerParallel(Builder& b) {
  const KernelSpec& s = b.spec;
  const DType lane = s.output;
  const VecType acc = b.vec(lane);
  // The input type's identity (widened): an empty row gives what a narrow loop would.
  auto identitySplat = [&](const std::string& dst, VecType t) {
    Stmt z = b.splatIdentity(dst, t);
    z.literal = identityLiteral(s.op, s.input);
    return z;
  };
  auto rowGroup = [&](bool partial) {
    ir::Block blk, body;
    blk.push_back(identitySplat("lane_acc", acc));
    // The last group of rows: lanes past the last row are inactive.
    const std::string rowLanes = partial ? "row_lanes" : "";
    if (partial) blk.push_back(b.whileLt(rowLanes, acc, b.sym("i"), b.sym(b.rows), true));
    Stmt g = b.make(OpKind::GatherRows, "column", acc);
    g.index = b.rowStart("i") + b.sym("j");
    g.stride = b.sym(b.stride);
    if (partial) {
      g.pred = rowLanes;
      g.literal = identityLiteral(s.op, s.input);
    }
    body.push_back(g);
    body.push_back(b.combine("lane_acc", "column", acc));
    blk.push_back(ir::forLoop("j", Index::constant(0), b.sym(b.cols), 1, std::move(body), false,
                              "sequential along the row"));
    blk.push_back(b.store("lane_acc", acc, b.sym("i"), rowLanes));
    return blk;
  };
  ir::Block out;
  out.push_back(ir::forLoop("i", Index::constant(0), b.sym(b.rows), Builder::lanesOf(acc), rowGroup(false), false,
                            acc.lanes > 1 ? std::to_string(acc.lanes) + " rows per vector, lane = row" : ""));
  if (acc.lanes > 1) {
    if (s.tail == TailPolicy::scalar) {
      // A one-lane version of the same loop finishes the remaining rows.
      ir::Block scalarRows;
      VecType s1{lane, 1};
      scalarRows.push_back(identitySplat("lane_acc", s1));
      ir::Block body;
      Stmt g = b.make(OpKind::GatherRows, "column", s1);
      g.index = b.rowStart("i") + b.sym("j");
      g.stride = b.sym(b.stride);
      body.push_back(g);
      body.push_back(b.combine("lane_acc", "column", s1));
      scalarRows.push_back(ir::forLoop("j", Index::constant(0), b.sym(b.cols), 1, std::move(body)));
      scalarRows.push_back(b.store("lane_acc", s1, b.sym("i")));
      out.push_back(ir::forLoop("i", {}, b.sym(b.rows), 1, std::move(scalarRows), true, "scalar tail rows"));
    } else if (s.tail == TailPolicy::predicated || !s.rows.isStatic() || *s.rows.value % b.maxLanes(acc)) {
      out.push_back(ir::ifLess(b.sym("i"), b.sym(b.rows), rowGroup(true), "remaining rows: predicated lanes"));
    }
  }
  b.note("strategy inner_parallel: lane r reduces row i + r in sequential order; columns are gathered (" +
         std::string(nameOf(lane)) + " lanes)");
  return out;
}

// --- column reductions (axis 0): lanes run along the columns, every row is one vertical step,
// so each column is reduced in sequential order and no horizontal reduction is needed.
ir::Block columnReduction(Builder& b) {
  const KernelSpec& s = b.spec;
  const DType work = commutesWithWidening(s.op) ? s.input : s.output;
  const VecType in = b.vec(s.input);
  const VecType acc = b.vec(work);
  const VecType outT = b.vec(s.output);
  const int parts = in.lanes / acc.lanes;
  const int blocks = in.lanes == 1 ? 1 : b.spec.schedule.accumulators.value_or(2);
  auto columnBlock = [&](int nblocks, bool partial) {
    ir::Block blk, body;
    std::vector<std::string> accs;
    for (int k = 0; k < nblocks; ++k)
      for (int p = 0; p < parts; ++p) {
        accs.push_back("acc" + std::to_string(k) + (parts > 1 ? "_" + std::to_string(p) : ""));
        blk.push_back(b.splatIdentity(accs.back(), acc));
      }
    // The tail block (one vector): columns past the last are inactive.
    if (partial) blk.push_back(b.whileLt("col_lanes", in, b.sym("j"), b.sym(b.cols), true));
    for (int k = 0; k < nblocks; ++k) {
      std::string x = "x" + std::to_string(k);
      const Index at = b.rowStart("r") + b.sym("j") + Builder::lanesOf(in) * k;
      body.push_back(partial ? b.maskedLoad(x, in, at, "col_lanes") : b.load(x, in, at));
      for (int p = 0; p < parts; ++p) {
        std::string v = x;
        if (parts > 1 || work != s.input) {
          v = x + "_w" + std::to_string(p);
          Stmt e = b.make(in.lanes == 1 ? OpKind::Convert : OpKind::Extend, v, acc, {x});
          e.part = p;
          body.push_back(e);
        }
        body.push_back(b.combine(accs[k * parts + p], v, acc));
      }
    }
    blk.push_back(ir::forLoop("r", Index::constant(0), b.sym(b.rows), 1, std::move(body), false,
                              "one row per step: each lane is one column"));
    for (int k = 0; k < nblocks; ++k)
      for (int p = 0; p < parts; ++p) {
        const std::string& a = accs[k * parts + p];
        const Index base = Builder::lanesOf(in) * k + Builder::lanesOf(acc) * p;
        // Widen the narrow work type to the output lane by lane (min/max/bitwise ran narrow).
        const int outParts = acc.lanes / outT.lanes;
        for (int q = 0; q < outParts; ++q) {
          std::string o = a;
          if (work != s.output) {
            o = a + "_out" + std::to_string(q);
            Stmt e = b.make(acc.lanes == 1 ? OpKind::Convert : OpKind::Extend, o, outT, {a});
            e.part = q;
            blk.push_back(e);
          }
          const Index off = (base + Builder::lanesOf(outT) * q).simplified();
          std::string outLanes;
          if (partial) {
            // Named by position in lanes at the minimum length (0, 4, 8... as before).
            outLanes = "out_lanes" + std::to_string(int64_t(k) * in.lanes + int64_t(p) * acc.lanes + int64_t(q) * outT.lanes);
            blk.push_back(b.whileLt(outLanes, outT, b.sym("j") + off, b.sym(b.cols), false));
          }
          blk.push_back(b.store(o, outT, b.sym("j") + off, outLanes));
        }
      }
    return blk;
  };
  ir::Block out;
  out.push_back(ir::forLoop("j", Index::constant(0), b.sym(b.cols), Builder::lanesOf(in) * blocks,
                            columnBlock(blocks, false), false,
                            (Builder::lanesOf(in) * blocks).str() + " columns per step"));
  if (blocks > 1)
    out.push_back(ir::forLoop("j", {}, b.sym(b.cols), Builder::lanesOf(in), columnBlock(1, false), true));
  if (in.lanes > 1) {
    bool exact = false;
    if (s.tail == TailPolicy::none && in.scalable) {
      exact = *s.cols.value % b.maxLanes(in) == 0;  // otherwise predicated: the lane count is not known here
    } else if (s.tail == TailPolicy::none) {
      if (*s.cols.value % in.lanes)
        throw PlanError("tail \"none\": cols = " + std::to_string(*s.cols.value) +
                        " is not a multiple of the " + std::to_string(in.lanes) + " lanes of " +
                        b.target.spelling + "; use tail \"predicated\" or \"scalar\"",
                        "/tail");
      exact = true;
    }
    if (!exact && s.tail != TailPolicy::scalar)
      out.push_back(ir::ifLess(b.sym("j"), b.sym(b.cols), columnBlock(1, true), "predicated tail columns"));
    if (!exact && s.tail == TailPolicy::scalar) {
      // The one-lane plan of the same loop finishes the columns.
      // Builder keeps a reference to its Target: it must outlive scalarB (ASan found a temporary here).
      const Target scalar = makeTarget({"scalar", {}});
      Builder scalarB(b.spec, scalar);
      ir::Block tail = columnReduction(scalarB);
      tail.front().continues = true;
      tail.front().text = "scalar tail columns";
      out.insert(out.end(), tail.begin(), tail.begin() + 1);
    }
  }
  b.note("column reduction: lanes = columns, rows walked in order (sequential per column)");
  return out;
}

}  // namespace

ir::Plan buildReducePlan(const KernelSpec& spec, const Target& target) {
  Builder b(spec, target);
  const Strategy strategy = resolveStrategy(spec);
  b.addOutput("output", spec.output, spec.rank == 1 ? Index::constant(1) : b.sym(spec.axis == 1 ? b.rows : b.cols));
  b.plan.strategy = spec.axis == 0 ? "column" : std::string(nameOf(strategy));
  b.plan.apiDoc = reduceApiDoc(spec, strategy);
  b.plan.overview = reduceFormula(spec) + "; " + std::string(nameOf(spec.input)) + " -> " + std::string(nameOf(spec.output));
  b.plan.semantics = {{"op", std::string(nameOf(spec.op))},
                      {"axis", std::to_string(spec.axis)},  // 1: one output per row, 0: per column
                      {"order", std::string(nameOf(spec.order))}};
  if (spec.axis == 0) {
    b.plan.body = columnReduction(b);
  } else {
    if (spec.order == FloatOrder::sequential && isFloat(spec.input) && strategy != Strategy::inner_parallel)
      throw PlanError("order \"sequential\" on floats needs strategy inner_parallel", "/order");
    if (strategy == Strategy::inner_parallel) {
      b.plan.body = innerParallel(b);
    } else {
      RowPlanner rp(b);
      if (rp.a.dot) b.note("widening sum: " + rp.a.dot->instruction);
      if (strategy == Strategy::inner_reduction) {
        b.note("strategy inner_reduction: one horizontal reduction per vector");
        b.plan.body = rp.innerReduction();
      } else {
        b.note("strategy vector_accumulator: vector accumulators, one horizontal reduction per row");
        const int64_t inL2 = int64_t(kMultiRowMaxVectors) * rp.a.in.lanes;
        const int64_t inL1 = std::max<int64_t>(multiRowMaxBytesInL1(target) / bytesOf(spec.input), inL2);
        // Static extents decide statically; otherwise the input's size picks the threshold at run time.
        const std::optional<int64_t> staticBytes =
            spec.rows.isStatic() && spec.cols.isStatic() && (!spec.rowStride || spec.rowStride->isStatic())
                ? std::optional<int64_t>(*spec.rows.value * (spec.rowStride ? *spec.rowStride->value : *spec.cols.value) *
                                         bytesOf(spec.input))
                : std::nullopt;
        const int64_t threshold = staticBytes && *staticBytes <= kL1Bytes ? inL1 : inL2;
        const bool staticLong = spec.cols.isStatic() && *spec.cols.value >= threshold && !spec.schedule.rows;
        if (rp.multiRowApplies() && !staticLong) {
          ir::Block shortRows = rp.multiRowVectorAccumulator();
          ir::Block rest = rp.singleRowVectorAccumulator(true);
          shortRows.insert(shortRows.end(), rest.begin(), rest.end());
          if (spec.schedule.rows || spec.cols.isStatic()) {
            b.plan.body = std::move(shortRows);
          } else {
            // Measured: blocks of rows win on short rows (one final reduction per block instead of
            // per row), K accumulators per row win on long ones (fewer concurrent streams).
            b.note("rows shorter than " + std::to_string(inL2) + " columns (" + std::to_string(inL1) +
                   " when the input fits in L1) take the blocks of rows, longer rows accumulators of their own "
                   "(chosen at run time)");
            const VecType i64s{DType::i64, 1};
            Stmt limit = b.make(OpKind::SetIndex, "short_rows_below", i64s);
            limit.index = Index::constant(inL2);
            b.plan.body.push_back(limit);
            if (inL1 > inL2) {
              Stmt l1 = b.make(OpKind::SetIndex, "short_rows_below", i64s, {}, false);
              l1.index = Index::constant(inL1);
              const Index elems = b.sym(b.rows).times(b.stride);
              b.plan.body.push_back(ir::ifLess(elems, Index::constant(kL1Bytes / bytesOf(spec.input) + 1), {l1},
                                               "the input fits in L1: blocks of rows pay off for longer rows"));
            }
            b.plan.body.push_back(ir::ifLess(b.sym(b.cols), b.sym("short_rows_below"), std::move(shortRows),
                                             "short rows: blocks of rows"));
            b.plan.body.push_back(ir::ifLess(b.sym("short_rows_below") - Index::constant(1), b.sym(b.cols),
                                             rp.singleRowVectorAccumulator(false), "long rows: accumulators per row"));
          }
        } else {
          b.plan.body = rp.singleRowVectorAccumulator(false);
        }
      }
      if (rp.work != spec.input && !rp.a.dot && rp.a.parts > 1)
        b.note("inputs are widened to " + std::string(nameOf(rp.work)) + " in " +
               std::to_string(rp.a.parts) + " parts per vector");
      if (commutesWithWidening(spec.op) && spec.input != spec.output)
        b.note(std::string(nameOf(spec.op)) + " runs in " + std::string(nameOf(spec.input)) +
               " and is widened once per row");
    }
  }
  ir::removeDeadCode(b.plan);
  if (ir::contains(b.plan.body, ir::OpKind::Load, true))
    b.note(target.rowEndTails(spec.input)
               ? "tails: the row's last whole vector re-read, counted lanes blended to the identity (rows shorter than a vector: " +
                     std::string(target.maskRegisters ? "masked loads)" : "masked loads or a staged copy)")
               : "tails: masked loads with the identity in inactive lanes");
  if (auto problems = b.plan.verify(); !problems.empty())
    throw std::logic_error("internal error: plan for " + target.spelling + " fails verification: " + problems.front());
  return b.plan;
}

}  // namespace simdgen
