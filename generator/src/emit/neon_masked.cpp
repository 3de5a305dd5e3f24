// SPDX-License-Identifier: Apache-2.0
#include "emit/neon_masked.h"

#include "emit/c_scalar.h"
#include "emit/neon_spelling.h"

namespace simdgen::emit::neon {

using c::call;
using c::ctype;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

namespace {

constexpr int kLanesBits = 128;

std::string clamped(const ir::Index& count, bool partial, int lanes, LowerContext& cx) {
  if (partial) return count.str();
  cx.helpers.insert("clamp_lanes");
  return "simdgen_clamp_lanes(" + count.str() + ", " + std::to_string(lanes) + ")";
}

// whilelt(lo, hi): lanes whose index is below the active count.
std::string whileLtExpr(const Stmt& def, LowerContext& cx) {
  const DType t = def.type.elem;
  const std::string n = clamped(activeCount(def), def.partialOnly, def.type.lanes, cx);
  return call("vcltq_" + usfx(t), {iota(t, cx), call("vdupq_n_" + usfx(t), {"(" + ucount(t) + ")(" + n + ")"})});
}

std::string fillOf(const Stmt& s) { return splat(s.type.elem, s.literal.empty() ? "0" : s.literal); }

}  // namespace

bool inlinesPredicate(const Stmt& def, const LowerContext& cx) { return isLaneRangePredicate(def, cx); }

std::string predicateDeclaration(const Stmt& def, LowerContext& cx) {
  return "const " + maskType(def.type.elem) + " " + def.dst + " = " + predicate(def.dst, cx) + ";";
}

std::string predicate(const std::string& p, LowerContext& cx) {
  static const PredicateSpelling spelling{
      whileLtExpr, [](const Stmt& def, const std::string& inner, LowerContext&) { return notMask(def.type.elem, inner); }};
  return predicateExpr(p, cx, spelling);
}

std::vector<std::string> activeLanes(const std::string& name, DType t, const std::string& p, LowerContext& cx) {
  const DType u = bitsOf(t) == 8 ? DType::u8 : bitsOf(t) == 16 ? DType::u16 : bitsOf(t) == 32 ? DType::u32 : DType::u64;
  return {ctype(u) + " " + name + "[" + std::to_string(kLanesBits / bitsOf(t)) + "];",
          store(u, name, predicate(p, cx))};
}

void whileLt(OpWriter& w) { w.assign(whileLtExpr(w.s, w.cx)); }

void predicateLogic(OpWriter& w) {
  const Stmt& s = w.s;
  const DType t = s.type.elem;
  const std::string a = predicate(s.args[0], w.cx);
  if (s.op == OpKind::Not) return w.assign(notMask(t, a));
  const std::string b = predicate(s.args[1], w.cx);
  const std::string op = s.rop == ReduceOp::bit_and ? "vandq_" : s.rop == ReduceOp::bit_or ? "vorrq_" : "veorq_";
  w.assign(call(op + usfx(t), {a, b}));
}

void maskedLoad(OpWriter& w) {
  const Stmt& s = w.s;
  const DType t = s.type.elem;
  const int lanes = s.type.lanes;
  const auto range = laneRange(s.pred, w.cx);
  if (s.inBounds) {
    // Every lane may be read: the whole vector, with the inactive lanes replaced by the fill. A
    // suffix takes its mask from the table (one load) rather than a compare against lane indices.
    w.cx.instructions.insert("tails: the row's last whole vector, inactive lanes selected to the identity");
    std::string mask;
    if (!range || !range->last) {
      mask = predicate(s.pred, w.cx);
    } else {
      w.cx.helpers.insert("tail_keep");
      mask = reinterpret(call("vld1q_u8", {"simdgen_tail_keep + (" + clamped(range->count, range->partial, lanes, w.cx) + ") * " +
                                                std::to_string(bytesOf(t))}),
                         DType::u8, bitsOf(t) == 8 ? DType::u8 : bitsOf(t) == 16 ? DType::u16 : bitsOf(t) == 32 ? DType::u32 : DType::u64);
    }
    return w.assign(select(t, mask, load(t, w.in(s.index)), fillOf(s)));
  }
  if (range && !range->last) {  // a prefix: loaded piecewise into a register, the fill selected in
    w.cx.instructions.insert("partial vectors loaded and stored piecewise (8/4/2/1-byte accesses: NEON has no masked load)");
    w.cx.helpers.insert("load_prefix_neon");
    const std::string loaded = reinterpret(call("simdgen_load_prefix", {w.in(s.index), "(" + clamped(range->count, range->partial, lanes, w.cx) +
                                                                             ") * " + std::to_string(bytesOf(t))}),
                                           DType::u8, t);
    if (s.literal.empty() || c::isZeroLiteral(s.literal)) return w.assign(loaded);
    return w.assign(select(t, predicate(s.pred, w.cx), loaded, fillOf(s)));
  }
  const std::string stage = w.cx.local(s, "_stage");
  w.out.push_back(ctype(t) + " " + stage + "[" + std::to_string(lanes) + "];");
  w.out.push_back(store(t, stage, fillOf(s)));
  w.cx.instructions.insert("predicated loads lane by lane (NEON has no masked load)");
  const std::string active = w.cx.local(s, "_active");
  for (auto& l : activeLanes(active, t, s.pred, w.cx)) w.out.push_back(l);
  w.out.push_back("for (int l = 0; l < " + std::to_string(lanes) + "; ++l) if (" + active + "[l]) " + stage + "[l] = (" +
                  w.in(s.index) + ")[l];");
  w.assign(load(t, stage));
}

void maskedStore(OpWriter& w) {
  const Stmt& s = w.s;
  const VecType v = w.typeOf(s.args[0]);
  const DType t = v.elem;
  const std::string val = s.args[0], ptr = w.outp(s.index), stage = val + "_stage";
  if (const auto range = laneRange(s.pred, w.cx); range && !range->last) {
    w.cx.helpers.insert("store_prefix_neon");
    return w.out.push_back("simdgen_store_prefix(" + ptr + ", " + reinterpret(val, t, DType::u8) + ", (" +
                           clamped(range->count, range->partial, v.lanes, w.cx) + ") * " + std::to_string(bytesOf(t)) + ");");
  }
  w.out.push_back("{");
  w.out.push_back(ctype(t) + " " + stage + "[" + std::to_string(v.lanes) + "];");
  w.out.push_back(store(t, stage, val));
  w.cx.instructions.insert("predicated stores lane by lane (NEON has no masked store)");
  const std::string active = val + "_active";
  for (auto& l : activeLanes(active, t, s.pred, w.cx)) w.out.push_back(l);
  w.out.push_back("for (int l = 0; l < " + std::to_string(v.lanes) + "; ++l) if (" + active + "[l]) (" + ptr + ")[l] = " + stage + "[l];");
  w.out.push_back("}");
}

}  // namespace simdgen::emit::neon
