// SPDX-License-Identifier: Apache-2.0
// Plans written directly (no spec, no builder) that prove the IR carries the next families; used
// by the interpreter tests (tests/unit/test_ir_proofs.cpp) and, lowered through each target's
// module, by the execution tests (tests/ir/).
//   timesTwo: seed 001, B[i] = A[i] * 2 as one loop governed by whilelt.
//   gemm: a register-tiled f32 GEMM micro-kernel (5 x 4 vectors), bias as the initial value, ReLU.
//   transposeTile: a shuffle network (plan/transpose_networks.h) between row loads and column
//              stores: out = transpose(in) for one contiguous n x n tile (half-row networks get
//              their inputs from the rows by concat_halves: gatherHalfRows).
//   threshold: out[i] = x > t ? x : t and the wrapped sum of the elements that are not above t
//              (compare, not, and, select, predicated loads, stores and reduction).
//   laneSum: the float sum of one vector in either fold order (halves; pairwise on Arm).
// `bits` is the vector length: 0 = scalable (SVE model), 8..2048 fixed (one lane when it equals
// the element width).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "ir/shuffle.h"
#include "plan/transpose_networks.h"

namespace proof_plans {

using namespace simdgen;
using ir::Index;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;


inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline Stmt declare(OpKind k, const std::string& dst, VecType t, std::vector<std::string> args = {}) {
  Stmt s = ir::op(k, dst, t, std::move(args));
  s.declare = true;
  return s;
}
inline Stmt access(OpKind k, const std::string& dst, VecType t, const std::string& tensor, Index at, std::string pred = "") {
  Stmt s = declare(k, dst, t);
  s.tensor = tensor;
  s.index = std::move(at);
  s.pred = std::move(pred);
  return s;
}
inline Stmt store(const std::string& tensor, const std::string& v, VecType t, Index at, std::string pred) {
  Stmt s = ir::op(OpKind::Store, "", t, {v});
  s.tensor = tensor;
  s.index = std::move(at);
  s.pred = std::move(pred);
  return s;
}
inline Stmt whileLt(const std::string& dst, VecType t, Index lo, Index hi) {
  Stmt s = declare(OpKind::WhileLt, dst, t.mask());
  s.lo = std::move(lo);
  s.hi = std::move(hi);
  return s;
}
inline Index sym(const std::string& s) { return Index::symbol(s); }

// The vector type of f32 at `bits` (0: scalable, the SVE model).
inline VecType vectorOf(DType t, int bits) { return bits ? VecType{t, bits / bitsOf(t)} : ir::scalableOf(t); }
inline VecType f32Vector(int bits) { return vectorOf(DType::f32, bits); }
inline Index lanesOf(VecType t) { return t.scalable ? Index::vscaled(t.lanes) : Index::constant(t.lanes); }
inline void setVectorLength(ir::Plan& p, int bits) {
  p.scalable = bits == 0;
  p.vectorBits = bits ? bits : 128;
  p.target = bits ? "generic" + std::to_string(bits) : "generic-vla";
}

inline ir::Plan timesTwo(int bits) {
  const VecType v = f32Vector(bits);
  ir::Plan p;
  p.kernel = "times_two";
  setVectorLength(p, bits);
  p.tensors = {{"a", DType::f32, false, {sym("n")}, {Index::constant(1)}},
               {"b", DType::f32, true, {sym("n")}, {Index::constant(1)}}};
  p.params = {{ir::Param::Kind::tensor, "a", "A", "a", ""},
              {ir::Param::Kind::extent, "n", "n", "", ""},
              {ir::Param::Kind::tensor, "b", "B", "b", ""}};
  Stmt two = declare(OpKind::Splat, "two", v);
  two.literal = "2.0f";
  ir::Block body;
  body.push_back(whileLt("active", v, sym("i"), sym("n")));
  body.push_back(access(OpKind::Load, "x", v, "a", sym("i"), "active"));
  Stmt mul = declare(OpKind::Binary, "y", v, {"x", "two"});
  mul.rop = ReduceOp::mul;
  body.push_back(mul);
  body.push_back(store("b", "y", v, sym("i"), "active"));
  Stmt loop = ir::forLoop("i", Index::constant(0), sym("n"), lanesOf(v), std::move(body), false,
                          "one predicated loop, no scalar cleanup");
  loop.coversTail = true;
  p.body = {two, loop};
  return p;
}

inline constexpr int kTileRows = 5, kTileVectors = 4;

// One tile of `rows` x kTileVectors vectors: C[i + r][j + v*L ..] = relu(bias + sum_k A * B).
inline ir::Block gemmTile(VecType v, int rows) {
  auto rv = [](const std::string& base, int r, int q) { return base + std::to_string(r) + "_" + std::to_string(q); };
  ir::Block tile;
  std::vector<Index> colOf;  // j + q * lanes
  for (int q = 0; q < kTileVectors; ++q) {
    colOf.push_back(sym("j") + lanesOf(v) * q);
    tile.push_back(whileLt("in_n" + std::to_string(q), v, colOf[q], sym("n")));
  }
  for (int r = 0; r < rows; ++r)
    for (int q = 0; q < kTileVectors; ++q)
      tile.push_back(access(OpKind::Load, rv("acc", r, q), v, "bias", colOf[q], "in_n" + std::to_string(q)));
  ir::Block kLoop;
  for (int q = 0; q < kTileVectors; ++q)
    kLoop.push_back(access(OpKind::Load, "b" + std::to_string(q), v, "b", sym("k").times("n") + colOf[q],
                           "in_n" + std::to_string(q)));
  for (int r = 0; r < rows; ++r) {
    const std::string a = "a" + std::to_string(r);
    kLoop.push_back(access(OpKind::LoadBroadcast, a, v, "a", (sym("i") + r).times("kk") + sym("k")));
    for (int q = 0; q < kTileVectors; ++q) {
      Stmt f = ir::op(OpKind::Fma, rv("acc", r, q), v, {rv("acc", r, q), a, "b" + std::to_string(q)});
      kLoop.push_back(f);
    }
  }
  tile.push_back(ir::forLoop("k", Index::constant(0), sym("kk"), 1, std::move(kLoop), false,
                             "one broadcast and " + std::to_string(kTileVectors) + " FMAs per element of A"));
  for (int r = 0; r < rows; ++r)
    for (int q = 0; q < kTileVectors; ++q) {
      Stmt relu = ir::op(OpKind::Binary, rv("acc", r, q), v, {rv("acc", r, q), "zero"});
      relu.rop = ReduceOp::max;
      tile.push_back(relu);
      tile.push_back(store("c", rv("acc", r, q), v, (sym("i") + r).times("n") + colOf[q], "in_n" + std::to_string(q)));
    }
  return tile;
}

inline ir::Plan gemm(int bits) {
  const VecType v = f32Vector(bits);
  ir::Plan p;
  p.kernel = "gemm_bias_relu";
  setVectorLength(p, bits);
  p.tensors = {{"a", DType::f32, false, {sym("m"), sym("kk")}, {sym("kk"), Index::constant(1)}},
               {"b", DType::f32, false, {sym("kk"), sym("n")}, {sym("n"), Index::constant(1)}},
               {"bias", DType::f32, false, {sym("n")}, {Index::constant(1)}},
               {"c", DType::f32, true, {sym("m"), sym("n")}, {sym("n"), Index::constant(1)}}};
  p.params = {{ir::Param::Kind::tensor, "a", "A", "a", ""},     {ir::Param::Kind::tensor, "b", "B", "b", ""},
              {ir::Param::Kind::tensor, "bias", "bias", "bias", ""}, {ir::Param::Kind::extent, "m", "M", "", ""},
              {ir::Param::Kind::extent, "n", "N", "", ""},     {ir::Param::Kind::extent, "kk", "K", "", ""},
              {ir::Param::Kind::tensor, "c", "C", "c", ""}};
  Stmt zero = declare(OpKind::Splat, "zero", v);
  zero.literal = "0.0f";
  p.body.push_back(zero);
  auto columns = [&](int rows) {
    Stmt cols = ir::forLoop("j", Index::constant(0), sym("n"), lanesOf(v) * kTileVectors, gemmTile(v, rows), false,
                            std::to_string(kTileVectors) + " vectors of columns; the last ones predicated");
    cols.coversTail = true;
    return cols;
  };
  p.body.push_back(ir::forLoop("i", Index::constant(0), sym("m"), kTileRows, {columns(kTileRows)}, false,
                               std::to_string(kTileRows) + " x " + std::to_string(kTileVectors) + " register tile"));
  p.body.push_back(ir::forLoop("i", {}, sym("m"), 1, {columns(1)}, true, "remaining rows, one at a time"));
  return p;
}

// Independent reference: the same per-element order (bias, then k = 0.. with one rounding per
// step, then ReLU), so the result must be bit-identical.
inline std::vector<float> gemmReference(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& bias,
                                 int64_t m, int64_t n, int64_t kk) {
  std::vector<float> c(size_t(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = bias[size_t(j)];
      for (int64_t k = 0; k < kk; ++k) acc = std::fma(a[size_t(i * kk + k)], b[size_t(k * n + j)], acc);
      c[size_t(i * n + j)] = acc > 0.0f ? acc : 0.0f;
    }
  return c;
}

// ---- threshold: predicates as values ---------------------------------------------------------

inline ir::Plan threshold(DType t, int bits, const std::string& limit) {
  const VecType v = vectorOf(t, bits), one{t, 1};
  ir::Plan p;
  p.kernel = "threshold";
  setVectorLength(p, bits);
  p.rop = ReduceOp::add;
  p.tensors = {{"a", t, false, {sym("n")}, {Index::constant(1)}},
               {"b", t, true, {sym("n")}, {Index::constant(1)}},
               {"total", t, true, {Index::constant(1)}, {Index::constant(1)}}};
  p.params = {{ir::Param::Kind::tensor, "a", "a", "a", ""},
              {ir::Param::Kind::extent, "n", "n", "", ""},
              {ir::Param::Kind::tensor, "b", "b", "b", ""},
              {ir::Param::Kind::tensor, "total", "total", "total", ""}};
  Stmt limitV = declare(OpKind::Splat, "limit", v);
  limitV.literal = limit;
  Stmt zero = declare(OpKind::Splat, "zero", v);
  zero.literal = "0";
  Stmt sum = declare(OpKind::Splat, "sum", one);
  sum.literal = "0";
  ir::Block body;
  body.push_back(whileLt("active", v, sym("i"), sym("n")));
  body.push_back(access(OpKind::Load, "x", v, "a", sym("i"), "active"));
  Stmt above = declare(OpKind::Compare, "above", v.mask(), {"x", "limit"});
  above.cmp = ir::Cmp::gt;
  body.push_back(above);
  body.push_back(declare(OpKind::Select, "y", v, {"above", "x", "limit"}));
  body.push_back(store("b", "y", v, sym("i"), "active"));
  body.push_back(declare(OpKind::Not, "not_above", v.mask(), {"above"}));
  Stmt rest = declare(OpKind::Binary, "rest", v.mask(), {"not_above", "active"});
  rest.rop = ReduceOp::bit_and;
  body.push_back(rest);
  if (v.lanes == 1) {
    body.push_back(declare(OpKind::Select, "part", one, {"rest", "x", "zero"}));
  } else {
    Stmt part = declare(OpKind::ReduceLanes, "part", one, {"x"});
    part.pred = "rest";
    body.push_back(part);
  }
  body.push_back(ir::op(OpKind::Binary, "sum", one, {"sum", "part"}));
  Stmt loop = ir::forLoop("i", Index::constant(0), sym("n"), lanesOf(v), std::move(body), false, "predicated loop");
  loop.coversTail = true;
  p.body = {limitV, sum, loop, store("total", "sum", one, Index::constant(0), "")};
  if (v.lanes == 1) p.body.insert(p.body.begin() + 1, zero);  // only the one-lane form selects it
  return p;
}

// ---- lane folds: the order of a horizontal sum ------------------------------------------------

// total = the sum of the first n <= lanes elements of a, folded in the plan's order: halves, or
// adjacent lanes first (`pairwise`, Arm's faddv/faddp); inactive lanes count as +0.0.
inline ir::Plan laneSum(DType t, int bits, bool pairwise) {
  const VecType v = vectorOf(t, bits), one{t, 1};
  ir::Plan p;
  p.kernel = "lane_sum";
  setVectorLength(p, bits);
  p.rop = ReduceOp::add;
  p.tensors = {{"a", t, false, {sym("n")}, {Index::constant(1)}}, {"total", t, true, {Index::constant(1)}, {Index::constant(1)}}};
  p.params = {{ir::Param::Kind::tensor, "a", "a", "a", ""},
              {ir::Param::Kind::extent, "n", "n", "", ""},
              {ir::Param::Kind::tensor, "total", "total", "total", ""}};
  Stmt sum = declare(OpKind::ReduceLanes, "sum", one, {"x"});
  sum.pred = "active";
  sum.pairwise = pairwise;
  p.body = {whileLt("active", v, Index::constant(0), sym("n")), access(OpKind::Load, "x", v, "a", Index::constant(0), "active"), sum,
            store("total", "sum", one, Index::constant(0), "")};
  return p;
}

// out[i] = acc[i] + the bf16 pair products of b[i] and c[i] (each a u32: the even step's bf16 in
// the low half), through dot_bf16 (vdpbf16ps) or dot_bf16_odd (Arm bfdot), over n lanes.
inline ir::Plan dotBf16(int bits, bool odd) {
  const VecType f = vectorOf(DType::f32, bits), u = vectorOf(DType::u32, bits);
  ir::Plan p;
  p.kernel = odd ? "dot_bf16_odd" : "dot_bf16";
  setVectorLength(p, bits);
  p.tensors = {{"acc", DType::f32, false, {sym("n")}, {Index::constant(1)}}, {"b", DType::u32, false, {sym("n")}, {Index::constant(1)}},
               {"c", DType::u32, false, {sym("n")}, {Index::constant(1)}}, {"out", DType::f32, true, {sym("n")}, {Index::constant(1)}}};
  p.params = {{ir::Param::Kind::tensor, "acc", "acc", "acc", ""}, {ir::Param::Kind::tensor, "b", "b", "b", ""},
              {ir::Param::Kind::tensor, "c", "c", "c", ""},       {ir::Param::Kind::extent, "n", "n", "", ""},
              {ir::Param::Kind::tensor, "out", "out", "out", ""}};
  ir::Block body;
  body.push_back(whileLt("active", f, sym("i"), sym("n")));
  body.push_back(access(OpKind::Load, "x", f, "acc", sym("i"), "active"));
  body.push_back(access(OpKind::Load, "y", u, "b", sym("i"), "active"));
  body.push_back(access(OpKind::Load, "z", u, "c", sym("i"), "active"));
  body.push_back(declare(odd ? OpKind::DotBf16Odd : OpKind::DotBf16, "d", f, {"x", "y", "z"}));
  body.push_back(store("out", "d", f, sym("i"), "active"));
  Stmt loop = ir::forLoop("i", Index::constant(0), sym("n"), lanesOf(f), std::move(body), false, "one predicated loop");
  loop.coversTail = true;
  p.body = {loop};
  return p;
}

// ---- a transpose network between loads and stores ---------------------------------------------

// Builds the inputs of a half-row network (TransposeNetwork::halfRows) from full tile rows held
// in `rows`: input k = concat_halves of the two rows it takes halves of (the same half of both,
// as one 256-bit load inserted next to another gives). Prepended to the network it makes a plain
// rows -> columns transpose, which sim::proveTranspose checks.
inline ir::Block gatherHalfRows(const TransposeNetwork& net, const std::vector<std::string>& rows) {
  ir::Block b;
  for (size_t k = 0; k < net.rows.size(); ++k) {
    const auto [lowRow, lowHalf] = net.halfRows.at(2 * k);
    const auto [highRow, highHalf] = net.halfRows.at(2 * k + 1);
    if (lowHalf != highHalf) throw std::logic_error(net.rows[k] + " joins different halves: no concat_halves");
    b.push_back(ir::shuffles::shuffleOp(net.rows[k], net.type, {rows[size_t(lowRow)], rows[size_t(highRow)]},
                                        ir::shuffles::concatHalves(lowHalf == 1)));
  }
  return b;
}

// out = transpose(in) for one contiguous n x n tile: row loads, the network, column stores. A
// half-row network gets its inputs from full row loads (gatherHalfRows). A scalable network is
// meant for one vscale (n = lanes * vscale): the caller runs it only at that vector length.
inline ir::Plan transposeTile(const TransposeNetwork& net) {
  const int n = static_cast<int>(net.rows.size());
  ir::Plan p;
  p.kernel = "transpose_tile";
  p.scalable = net.type.scalable;
  p.vectorBits = net.type.scalable ? 128 : net.type.bits();
  p.tensors = {{"in", net.type.elem, false, {Index::constant(n * n)}, {Index::constant(1)}},
               {"out", net.type.elem, true, {Index::constant(n * n)}, {Index::constant(1)}}};
  p.params = {{ir::Param::Kind::tensor, "in", "in", "in", ""}, {ir::Param::Kind::tensor, "out", "out", "out", ""}};
  std::vector<std::string> rows = net.rows;
  if (!net.halfRows.empty())
    for (int r = 0; r < n; ++r) rows[size_t(r)] = "full" + std::to_string(r);
  // Vector k starts at k * n = k * lanes * vscale: a scalable plan says so with vscale.
  auto at = [&](int k) { return net.type.scalable ? Index::vscaled(k * net.type.lanes) : Index::constant(k * n); };
  for (int r = 0; r < n; ++r) p.body.push_back(access(OpKind::Load, rows[size_t(r)], net.type, "in", at(r)));
  if (!net.halfRows.empty()) {
    const ir::Block inputs = gatherHalfRows(net, rows);
    p.body.insert(p.body.end(), inputs.begin(), inputs.end());
  }
  p.body.insert(p.body.end(), net.body.begin(), net.body.end());
  for (int c = 0; c < n; ++c) p.body.push_back(store("out", net.cols[c], net.type, at(c), ""));
  return p;
}

}  // namespace proof_plans
