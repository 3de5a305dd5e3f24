// SPDX-License-Identifier: Apache-2.0
// The NEON module: AArch64 AdvSIMD intrinsics (arm_neon.h) for 128-bit vector values, mask
// vectors for predicates; one-lane values go to the scalar module. Horizontal reductions follow
// the plan's order exactly (halves, then lanes), so float results match the interpreter bit for bit.
#include "emit/neon_lowering.h"

#include <stdexcept>

#include "emit/c_scalar.h"
#include "emit/neon_masked.h"
#include "emit/neon_spelling.h"
#include "emit/scalar_lowering.h"

namespace simdgen::emit {

using c::call;
using c::ctype;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;
using namespace neon;

namespace {

struct NeonWriter {
  OpWriter& w;
  const Stmt& s = w.s;
  LowerContext& cx = w.cx;
  std::vector<std::string>& out = w.out;

  VecType typeOf(const std::string& v) const { return w.typeOf(v); }
  std::string carry(const std::string& v) const { return c::carried(v, s.type.elem, cx.plan.rop); }

  // Widening, one doubling at a time: each step takes the low or high half (vmovl / vmovl_high),
  // in the source's signedness (C's conversion), reinterpreted to the destination at the end.
  void extend() {
    const DType from = typeOf(s.args[0]).elem, to = s.type.elem;
    if (isFloat(from) || isFloat(to)) {
      if (from != DType::f32 || to != DType::f64) throw std::logic_error("no NEON extend " + std::string(nameOf(from)) + " -> " + std::string(nameOf(to)));
      return w.assign(s.part == 0 ? call("vcvt_f64_f32", {call("vget_low_f32", {s.args[0]})}) : call("vcvt_high_f64_f32", {s.args[0]}));
    }
    cx.instructions.insert("sxtl/uxtl widening");
    std::string x = s.args[0];
    DType cur = from;
    int factor = bitsOf(to) / bitsOf(from), part = s.part;
    while (factor > 1) {
      factor /= 2;
      const bool high = part >= factor;
      part %= factor;
      x = high ? call("vmovl_high_" + sfx(cur), {x}) : call("vmovl_" + sfx(cur), {call("vget_low_" + sfx(cur), {x})});
      cur = integerOf(cur, bitsOf(cur) * 2);
    }
    w.assign(reinterpret(x, cur, to));
  }

  void dotAccumulate() {
    const DType from = typeOf(s.args[1]).elem, acc = s.type.elem;
    const std::string a = s.args[0], x = s.args[1];
    if (s.group == 2) {
      cx.instructions.insert(std::string(isSigned(from) ? "sadalp" : "uadalp") + ": pairwise widening add-accumulate");
      return w.assign(call("vpadalq_" + sfx(from), {a, x}));
    }
    if (s.group == 4 && bitsOf(from) == 8 && bitsOf(acc) == 32) {
      if (cx.target.has("dotprod")) {
        const std::string ones = std::string("ones_") + sfx(from);
        cx.hoist("const " + vecType(from, 16) + " " + ones + " = " + splat(from, "1") + ";");
        cx.instructions.insert(std::string(isSigned(from) ? "sdot" : "udot") + ": 4 bytes per 32-bit lane against a ones vector");
        return w.assign(call("vdotq_" + sfx(acc), {a, x, ones}));
      }
      cx.instructions.insert(std::string(isSigned(from) ? "saddlp + sadalp" : "uaddlp + uadalp") + ": 4 bytes per 32-bit lane");
      return w.assign(call("vpadalq_" + sfx(integerOf(from, 16)), {a, call("vpaddlq_" + sfx(from), {x})}));
    }
    throw std::logic_error("no NEON dot_accumulate " + std::string(nameOf(from)) + " -> " + std::string(nameOf(acc)) +
                           " in groups of " + std::to_string(s.group));
  }

  // dst = fold(v) in the plan's order: rop(lower half, upper half) until one lane is left.
  void reduceLanes(const std::string& v) {
    const DType t = typeOf(v).elem;
    const ReduceOp op = s.rop;
    const std::string st = sfx(t);
    if (s.pairwise) {  // faddp of adjacent lanes, twice for f32: the plan's pairwise fold
      if (!isFloat(t) || op != ReduceOp::add) throw std::logic_error("NEON pairwise reduce_lanes: float sums only");
      cx.instructions.insert("faddp: pairwise float sums across the vector (vaddvq)");
      return w.assign(call("vaddvq_" + st, {v}));
    }
    cx.instructions.insert("horizontal reductions in the plan's order (halves, then lanes)");
    // Integer add, min and max do not depend on the order: one across-vector instruction
    // (no 64-bit smaxv/sminv exists).
    if (!isFloat(t) && (op == ReduceOp::add || ((op == ReduceOp::min || op == ReduceOp::max) && bitsOf(t) < 64)))
      return w.assign(carry(call((op == ReduceOp::add ? "vaddvq_" : op == ReduceOp::min ? "vminvq_" : "vmaxvq_") + st, {v})));
    if (t == DType::f64 && op == ReduceOp::add) return w.assign(call("vpaddd_f64", {v}));
    if (t == DType::f32 && (op == ReduceOp::add || op == ReduceOp::mul)) {
      const std::string half = s.dst + "_half";
      out.push_back("const float32x2_t " + half + " = " +
                    call(op == ReduceOp::add ? "vadd_f32" : "vmul_f32", {call("vget_low_f32", {v}), call("vget_high_f32", {v})}) + ";");
      if (op == ReduceOp::add) return w.assign(call("vpadds_f32", {half}));
      return w.assign(call("vget_lane_f32", {half, "0"}) + " * " + call("vget_lane_f32", {half, "1"}));
    }
    // Everything else: the lanes in an array, folded by halves as the plan defines.
    const DType u = isFloat(t) || op == ReduceOp::min || op == ReduceOp::max ? t : unsignedOf(t);
    const int lanes = 128 / bitsOf(t);
    const std::string arr = s.dst + "_lanes";
    out.push_back(ctype(u) + " " + arr + "[" + std::to_string(lanes) + "];");
    out.push_back(store(u, arr, reinterpret(v, t, u)));
    out.push_back("for (int half = " + std::to_string(lanes / 2) + "; half > 0; half /= 2)");
    out.push_back("  for (int l = 0; l < half; ++l) " + arr + "[l] = " + c::binary(op, u, arr + "[l]", arr + "[l + half]") + ";");
    w.assign(carry(u == t ? arr + "[0]" : "(" + ctype(t) + ")" + arr + "[0]"));
  }

  // One named shuffle of 128-bit vectors a and b of `type`, at its unit width.
  std::string shuffle(const ir::Shuffle& sh, VecType type, const std::string& a, const std::string& b) {
    using K = ir::Shuffle::Kind;
    const DType t = type.elem;
    int unit = sh.unitBits ? sh.unitBits : bitsOf(t);
    std::string name;
    switch (sh.kind) {
      case K::zip1: case K::unpack_lo: name = "vzip1q_"; break;
      case K::zip2: case K::unpack_hi: name = "vzip2q_"; break;
      case K::uzp1: name = "vuzp1q_"; break;
      case K::uzp2: name = "vuzp2q_"; break;
      case K::trn1: name = "vtrn1q_"; break;
      case K::trn2: name = "vtrn2q_"; break;
      case K::shuffle_ps:  // 2 units of a then 2 of b: even (0x88) or odd (0xDD) 32-bit units
        if (sh.imm != 0x88 && sh.imm != 0xDD) break;
        name = sh.imm == 0x88 ? "vuzp1q_" : "vuzp2q_";
        unit = 32;
        break;
      case K::concat_halves:  // the same half of a and b: 64-bit zip
        name = sh.imm ? "vzip2q_" : "vzip1q_";
        unit = 64;
        break;
      default: break;
    }
    if (name.empty() || type.bits() != 128)
      throw std::logic_error("no NEON lowering for shuffle " + sh.str() + " on " + ir::toString(type));
    const DType u = unit == bitsOf(t) ? t : integerOf(DType::u8, unit);
    return reinterpret(call(name + sfx(u), {reinterpret(a, t, u), reinterpret(b, t, u)}), u, t);
  }

  // The fold network of several rows. Pairwise stages are rop(uzp1, uzp2): addp / sminp / smaxp
  // where the instruction is exactly that (float min/max select to keep the plan's semantics).
  void reduceRows() {
    const DType t = s.type.elem;
    cx.instructions.insert("pairwise fold of the rows' accumulators (addp/sminp/smaxp)");
    std::vector<std::string> vecs = s.args;
    for (size_t stage = 0; stage < s.network.blockLanes.size(); ++stage) {
      const auto [lower, upper] = s.network.stage(stage);
      std::vector<std::string> next;
      for (size_t m = 0; m + 1 < vecs.size(); m += 2) {
        const std::string name = vecs.size() == 2 ? s.dst : "fold" + std::to_string(stage) + "_" + std::to_string(m / 2);
        const std::string a = vecs[m], b = vecs[m + 1];
        std::string expr;
        if (s.network.pairwise && s.rop == ReduceOp::add) expr = call("vpaddq_" + sfx(t), {a, b});
        else if (s.network.pairwise && !isFloat(t) && bitsOf(t) < 64 && (s.rop == ReduceOp::min || s.rop == ReduceOp::max))
          expr = call((s.rop == ReduceOp::min ? "vpminq_" : "vpmaxq_") + sfx(t), {a, b});
        else expr = binary(s.rop, t, shuffle(lower, s.type, a, b), shuffle(upper, s.type, a, b), cx);
        out.push_back(vecType(t, s.type.lanes) + " " + name + " = " + expr + ";");
        next.push_back(name);
      }
      vecs = next;
    }
  }

  // Lane r reads element index + r * stride (columns of rows; a map's strided input). NEON has no
  // gather: each lane is loaded into its place (ld1 {v.s}[r]), in registers; a prefix predicate
  // loads only its lanes. Other predicates, or a conversion on the way, go through a stack tile.
  void gatherRows() {
    const DType t = s.type.elem;
    const int lanes = s.type.lanes;
    const std::string at = "(" + w.src() + " + " + s.index.str() + " + %d * " + s.stride.str() + ")";
    auto element = [&](int r) {
      std::string e = at;
      return e.replace(e.find("%d"), 2, std::to_string(r));
    };
    const auto range = s.pred.empty() ? std::nullopt : laneRange(s.pred, cx);
    // A constant stride of 2 to 4 whose whole structures may be read (the plan's readAhead covers
    // the load's lanes past the vector's): one structure load, its first member; 64 bits of
    // structures when the vector fits in 64 (a fractional vector), zeros above.
    const auto k = s.stride.constantValue();
    const bool half = lanes * bitsOf(t) <= 64;
    if (s.readAhead >= 0 && s.pred.empty() && w.source().dtype == t && k && *k >= 2 && *k <= 4 &&
        (half ? 64 : 128) / bitsOf(t) - lanes <= s.readAhead) {
      cx.instructions.insert("strided lanes by structure loads (vld2/vld3/vld4, one member kept)");
      const std::string member = call("vld" + std::to_string(*k) + (half ? "_" : "q_") + sfx(t), {"(" + w.src() + " + " + s.index.str() + ")"}) + ".val[0]";
      return w.assign(half ? call("vcombine_" + sfx(t), {member, call("vdup_n_" + sfx(t), {"0"})}) : member);
    }
    if (w.source().dtype == t && (s.pred.empty() || (range && !range->last))) {
      cx.instructions.insert("strided lanes loaded one at a time into their places (ld1 to a lane: NEON has no gather)");
      const std::string fill = s.literal.empty() ? "0" : s.literal;
      out.push_back(w.decl() + " = " + splat(t, fill) + ";");
      for (int r = 0; r < lanes; ++r) {
        const std::string line = s.dst + " = " + call("vld1q_lane_" + sfx(t), {element(r), s.dst, std::to_string(r)}) + ";";
        out.push_back(s.pred.empty() ? line : "if (" + std::to_string(r) + " < " + range->count.str() + ") " + line);
      }
      return;
    }
    cx.instructions.insert("columns filled lane by lane through a stack tile (NEON has no gather)");
    const std::string stage = s.dst + "_stage";
    out.push_back(ctype(t) + " " + stage + "[" + std::to_string(128 / bitsOf(t)) + "] = {0};");
    const std::string row = "(" + ctype(t) + ")" + w.src() + "[" + s.index.str() + " + lane * " + s.stride.str() + "]";
    std::string read = row;
    if (!s.pred.empty()) {
      std::string active;
      if (range && !range->last) {
        active = "lane < " + range->count.str();
      } else {
        const std::string lanesOf = cx.local(s, "_active");
        for (auto& l : activeLanes(lanesOf, t, s.pred, cx)) out.push_back(l);
        active = lanesOf + "[lane]";
      }
      read = active + " ? " + row + " : (" + ctype(t) + ")(" + (s.literal.empty() ? "0" : s.literal) + ")";
    }
    out.push_back("for (int64_t lane = 0; lane < " + std::to_string(lanes) + "; ++lane) " + stage + "[lane] = " + read + ";");
    w.assign(load(t, stage));
  }

  // Lane r writes element index + r * stride (a map's strided output), lane after lane. NEON has no
  // scatter: the Q register goes to a stack tile, then each active lane to its element (a prefix
  // predicate compares the lane with its count, any other is stored beside it as lane masks).
  void scatterRows() {
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const std::string full = std::to_string(128 / bitsOf(t));
    cx.instructions.insert("strided stores: the vector stored to a stack tile, then each lane to its element (NEON has no scatter)");
    out.push_back("{");
    out.push_back(ctype(t) + " scattered[" + full + "];");
    out.push_back(store(t, "scattered", s.args[0]));
    std::string active;
    if (!s.pred.empty()) {
      if (const auto range = laneRange(s.pred, cx); range && !range->last) {
        active = "lane < " + range->count.str();
      } else {
        for (auto& l : activeLanes("scattered_on", t, s.pred, cx)) out.push_back(l);
        active = "scattered_on[lane]";
      }
    }
    out.push_back(scatteredLanesLoop(w, std::to_string(v.lanes), active));
    out.push_back("}");
  }

  // The lane-equality mask as 64 bits, `per` bits per lane (low bits = lane 0): shrn by 4 for
  // bytes, xtn for wider lanes (NEON has no movemask).
  std::pair<std::string, int> equalBits(DType t, const std::string& eq) {
    const int bits = bitsOf(t);
    if (bits == 8)
      return {call("vget_lane_u64", {call("vreinterpret_u64_u8", {call("vshrn_n_u16", {call("vreinterpretq_u16_u8", {eq}), "4"})}), "0"}), 4};
    const std::string narrow = call("vmovn_u" + std::to_string(bits), {eq});
    return {call("vget_lane_u64", {call("vreinterpret_u64_u" + std::to_string(bits / 2), {narrow}), "0"}), bits / 2};
  }

  void locateEqual() {
    const DType t = w.source().dtype;
    const bool last = s.part == 1;
    const int lanes = 128 / bitsOf(t);
    const std::string L = std::to_string(lanes), c = s.dst + "_c", want = s.dst + "_want";
    cx.instructions.insert("block rescan: compare, narrow to a bit mask, and count zeros for the lane");
    VectorSearch search{{}, c};
    auto& v = search.lines;
    v.push_back("const " + vecType(t, lanes) + " " + want + " = " + splat(t, s.args[0]) + ";");
    const auto [mask, per] = equalBits(t, compare(ir::Cmp::eq, t, load(t, w.in(s.index) + " + " + c + (last ? " - " + L : "")), want));
    const std::string P = std::to_string(per);
    if (!last) {
      v.push_back("int64_t " + c + " = " + s.lo.str() + ";");
      v.push_back("for (; " + c + " + " + L + " <= " + s.hi.str() + "; " + c + " += " + L + ") {");
      v.push_back("const uint64_t hit = " + mask + ";");
      v.push_back("if (hit) { " + s.dst + " = " + c + " + __builtin_ctzll(hit) / " + P + "; break; }");
    } else {
      v.push_back("int64_t " + c + " = " + s.hi.str() + ";");
      v.push_back("for (; " + c + " - " + L + " >= " + s.lo.str() + "; " + c + " -= " + L + ") {");
      v.push_back("const uint64_t hit = " + mask + ";");
      v.push_back("if (hit) { " + s.dst + " = " + c + " - " + L + " + (63 - __builtin_clzll(hit)) / " + P + "; break; }");
    }
    v.push_back("}");
    writeLocateEqual(w, search);
  }

  // A fractional vector of `bits` (< 128) from memory: the low lanes, zeros above (a D register
  // load for 64 bits; the piecewise prefix load, folded to one access, below that).
  std::string loadLow(int bits) {
    const DType t = s.type.elem;
    if (bits == 64) return call("vcombine_" + sfx(t), {call("vld1_" + sfx(t), {w.in(s.index)}), call("vdup_n_" + sfx(t), {"0"})});
    cx.helpers.insert("load_prefix_neon");
    return reinterpret(call("simdgen_load_prefix", {w.in(s.index), std::to_string(bits / 8)}), DType::u8, t);
  }
  void storeLow(VecType v) {
    const std::string val = s.args[0], ptr = w.outp(s.index);
    if (v.bits() == 64) return out.push_back(call("vst1_" + sfx(v.elem), {ptr, call("vget_low_" + sfx(v.elem), {val})}) + ";");
    cx.helpers.insert("store_prefix_neon");
    out.push_back(call("simdgen_store_prefix", {ptr, reinterpret(val, v.elem, DType::u8), std::to_string(v.bits() / 8)}) + ";");
  }

  void nanMask() {
    const DType f = typeOf(s.args[0]).elem;
    w.assign(reinterpret(notMask(f, compare(ir::Cmp::eq, f, s.args[0], s.args[0])), unsignedOf(f), s.type.elem));
  }
};

// A narrowing conversion to a fractional vector (the low lanes of the 128-bit result): integers
// halve their width one xtn at a time, saturating ones sqxtn/uqxtn (sqxtun for signed to
// unsigned on the first step: saturation composes), unsigned to signed capped at the signed
// maximum (umin) after the unsigned narrowing; f64 -> f32 is fcvtn; 64-bit integers to f32 convert
// lane by lane (scvtf from a general register: one rounding; through f64 would round twice).
std::string narrowExpr(const Stmt& s, DType f, LowerContext& cx) {
  const DType t = s.type.elem;
  const std::string a = s.args[0];
  const std::string zero = "0";
  if (isFloat(t) && f == DType::f64) return call("vcombine_f32", {call("vcvt_f32_f64", {a}), call("vdup_n_f32", {zero})});
  if (isFloat(t)) {
    cx.instructions.insert("64-bit integers to f32 lane by lane (one rounding)");
    const std::string lane = "vgetq_lane_" + sfx(f);
    return call("vcombine_f32", {call("vset_lane_f32", {"(float)" + call(lane, {a, "1"}), call("vdup_n_f32", {"(float)" + call(lane, {a, "0"})}), "1"}),
                                 call("vdup_n_f32", {zero})});
  }
  cx.instructions.insert("xtn/sqxtn/uqxtn narrowing between element widths");
  const bool sat = s.conv == ConvMode::sat;
  std::string x = a;
  DType cur = f;
  while (bitsOf(cur) > bitsOf(t)) {
    const DType half = integerOf(sat && isSigned(f) && !isSigned(t) ? DType::u8 : cur, bitsOf(cur) / 2);
    std::string op = "vmovn_";
    if (sat) op = isSigned(cur) && !isSigned(half) ? "vqmovun_" : "vqmovn_";
    x = call(op + sfx(cur), {x});  // a 64-bit vector of the half width
    x = call("vcombine_" + sfx(half), {x, call("vdup_n_" + sfx(half), {zero})});
    cur = half;
  }
  if (sat && !isSigned(f) && isSigned(t))  // unsigned to signed: at most the signed maximum
    x = call("vminq_" + sfx(cur), {x, splat(cur, std::to_string((uint64_t{1} << (bitsOf(t) - 1)) - 1))});
  return reinterpret(x, cur, t);
}

// Convert between types of one width: AArch64 has every case natively, with the defined
// semantics (fcvtz/n/m/p saturate and give 0 for NaN; scvtf/ucvtf round to nearest even).
std::string convertExpr(const Stmt& s, DType f) {
  const DType t = s.type.elem;
  const std::string a = s.args[0];
  const int eb = bitsOf(t);
  const std::string n = std::to_string(eb);
  if (!isFloat(f) && !isFloat(t)) {
    if (s.conv != ConvMode::sat || isSigned(f) == isSigned(t)) return reinterpret(a, f, t);
    if (isSigned(f)) return reinterpret(call("vbicq_" + sfx(f), {a, call("vshrq_n_" + sfx(f), {a, std::to_string(eb - 1)})}), f, t);
    const std::string top = reinterpret(call("vshrq_n_s" + n, {reinterpret(a, f, t), std::to_string(eb - 1)}), t, f);
    return reinterpret(call("vbslq_" + sfx(f), {top, splat(f, std::to_string((uint64_t{1} << (eb - 1)) - 1) + "ull"), a}), f, t);
  }
  if (!isFloat(f) || isFloat(t)) return call("vcvtq_" + sfx(t) + "_" + sfx(f), {a});
  const ConvMode m = s.conv;
  const std::string op = m == ConvMode::nearest ? "vcvtnq_" : m == ConvMode::floor ? "vcvtmq_" : m == ConvMode::ceil ? "vcvtpq_" : "vcvtq_";
  return call(op + sfx(t) + "_" + sfx(f), {a});
}

class NeonLowering final : public IsaLowering {
 public:
  std::string typeName(VecType t, const LowerContext& cx) const override {
    if (t.lanes == 1) return scalarLowering().typeName(t, cx);
    // A fractional vector (fewer than 128 bits: element widths differ) is the low lanes of a Q register.
    if (t.bits() > 128) throw std::logic_error("NEON vectors are 128 bits, not " + ir::toString(t));
    return t.predicate ? maskType(t.elem) : vecType(t.elem, 128 / bitsOf(t.elem));
  }

  void lower(OpWriter& w) const override {
    if (isOneLaneOp(w)) return scalarLowering().lower(w);
    NeonWriter x{w};
    const Stmt& s = w.s;
    const DType t = s.type.elem;
    if (!s.pred.empty()) return lowerPredicated(x);
    switch (s.op) {
      case OpKind::Splat: return w.assign(splat(t, s.args.empty() ? s.literal : s.args[0]));
      case OpKind::Load: return w.assign(s.type.bits() < 128 ? x.loadLow(s.type.bits()) : load(t, w.in(s.index)));
      case OpKind::LoadBroadcast: return w.assign(call("vld1q_dup_" + sfx(t), {w.in(s.index)}));
      case OpKind::GatherRows: return x.gatherRows();
      case OpKind::ScatterRows: return x.scatterRows();
      case OpKind::Extend: return x.extend();
      case OpKind::Binary: return s.type.predicate ? predicateLogic(w) : w.assign(binary(s.rop, t, s.args[0], s.args[1], w.cx));
      case OpKind::Not: return predicateLogic(w);
      case OpKind::Fma:
        if (!isFloat(t)) break;
        w.cx.instructions.insert("fmla fused multiply-add");
        return w.assign(call("vfmaq_" + sfx(t), {s.args[0], s.args[1], s.args[2]}));
      case OpKind::Sub: return w.assign(call("vsubq_" + sfx(t), {s.args[0], s.args[1]}));
      case OpKind::Neg:  // fneg flips the sign bit; integers wrap (0 - x)
        if (!isFloat(t) && !isSigned(t)) return w.assign(call("vsubq_" + sfx(t), {splat(t, "0"), s.args[0]}));
        return w.assign(call("vnegq_" + sfx(t), {s.args[0]}));
      case OpKind::Div:
        if (!isFloat(t)) break;
        return w.assign(call("vdivq_" + sfx(t), {s.args[0], s.args[1]}));
      case OpKind::Popcount: {  // cnt per byte, then pairwise widening adds (uaddlp) up to the lane
        std::string v = call("vcntq_u8", {reinterpret(s.args[0], t, DType::u8)});
        DType at = DType::u8;
        for (; bitsOf(at) < bitsOf(t); at = integerOf(DType::u8, 2 * bitsOf(at))) v = call("vpaddlq_" + sfx(at), {v});
        return w.assign(reinterpret(v, at, t));
      }
      case OpKind::Abs:  // abs wraps (|MIN| = MIN) like the plan; fabs clears the sign bit
        return w.assign(isSigned(t) ? call("vabsq_" + sfx(t), {s.args[0]}) : s.args[0]);
      case OpKind::Sqrt: return w.assign(call("vsqrtq_" + sfx(t), {s.args[0]}));
      case OpKind::AddSat: return w.assign(call("vqaddq_" + sfx(t), {s.args[0], s.args[1]}));  // sqadd / uqadd
      case OpKind::SubSat: return w.assign(call("vqsubq_" + sfx(t), {s.args[0], s.args[1]}));
      case OpKind::AvgRound:  // srhadd / urhadd up to 32 bits; 64: (a | b) - ((a ^ b) >> 1)
        if (bitsOf(t) < 64) return w.assign(call("vrhaddq_" + sfx(t), {s.args[0], s.args[1]}));
        return w.assign(call("vsubq_" + sfx(t), {call("vorrq_" + sfx(t), {s.args[0], s.args[1]}),
                                                 call("vshrq_n_" + sfx(t), {call("veorq_" + sfx(t), {s.args[0], s.args[1]}), "1"})}));
      case OpKind::AbsDiff:  // sabd / uabd / fabd; 64-bit integers (none): a > b ? a - b : b - a
        if (isFloat(t) || bitsOf(t) < 64) return w.assign(call("vabdq_" + sfx(t), {s.args[0], s.args[1]}));
        return w.assign(call("vbslq_" + sfx(t), {call("vcgtq_" + sfx(t), {s.args[0], s.args[1]}), call("vsubq_" + sfx(t), {s.args[0], s.args[1]}),
                                                 call("vsubq_" + sfx(t), {s.args[1], s.args[0]})}));
      case OpKind::Round: {  // frintm / frintp / frintz / frintn: the direction is in the opcode
        const char* fn = s.conv == ConvMode::floor ? "vrndmq_" : s.conv == ConvMode::ceil ? "vrndpq_" : s.conv == ConvMode::trunc ? "vrndq_" : "vrndnq_";
        return w.assign(call(fn + sfx(t), {s.args[0]}));
      }
      case OpKind::ShiftLeft:  // shl; sshr (signed) or ushr: the immediate forms take 1..bits
        return w.assign(call("vshlq_n_" + sfx(t), {s.args[0], std::to_string(s.part)}));
      case OpKind::ShiftRight: return w.assign(call("vshrq_n_" + sfx(t), {s.args[0], std::to_string(s.part)}));
      case OpKind::Select: return w.assign(select(t, predicate(s.args[0], w.cx), s.args[1], s.args[2]));
      case OpKind::Compare: {
        const DType a = w.typeOf(s.args[0]).elem;
        return w.assign(compare(s.cmp, a, s.args[0], s.args[1]));
      }
      case OpKind::WhileLt: return whileLt(w);
      case OpKind::DotAccumulate: return x.dotAccumulate();
      case OpKind::ReduceLanes: return x.reduceLanes(s.args[0]);
      case OpKind::ReduceRows: return x.reduceRows();
      case OpKind::LoadHalves: break;  // an x86 load shape: no plan asks for it here
      case OpKind::Shuffle: return w.assign(x.shuffle(s.shuffle, s.type, s.args[0], s.args.size() > 1 ? s.args[1] : s.args[0]));
      case OpKind::Store: {
        const VecType v = w.typeOf(s.args[0]);
        if (s.streaming) break;  // only x86 plans stream their stores
        if (v.bits() < 128) return x.storeLow(v);
        return w.out.push_back(store(v.elem, w.outp(s.index), s.args[0]));
      }
      case OpKind::NaNMask: return x.nanMask();
      case OpKind::LocateEqual: return x.locateEqual();
      case OpKind::Bitcast: return w.assign(reinterpret(s.args[0], w.typeOf(s.args[0]).elem, t));
      case OpKind::Convert: {
        const DType f = w.typeOf(s.args[0]).elem;
        return w.assign(bitsOf(f) > bitsOf(t) ? narrowExpr(s, f, w.cx) : convertExpr(s, f));
      }
      case OpKind::ScaleB:  // AVX-512 only (builders ask for them there)
      case OpKind::GetExp:
      case OpKind::GetMant:
        throw std::logic_error("no " + std::string(nameOf(s.op)) + " on " + w.cx.target.spelling);
      case OpKind::LocateNaN:
      case OpKind::SetIndex:
      case OpKind::Fence:
      case OpKind::DotI8I8:  // sdot / udot on the quads' bytes (neon+dotprod)
      case OpKind::DotU8U8: {
        if (!w.cx.target.has("dotprod")) throw std::logic_error(std::string(ir::nameOf(s.op)) + " needs the dotprod feature (target neon+dotprod)");
        const bool sdot = s.op == OpKind::DotI8I8;
        const DType b8 = sdot ? DType::i8 : DType::u8, acc = sdot ? DType::i32 : DType::u32;
        w.cx.instructions.insert(sdot ? "sdot i8 x i8 quad dot products" : "udot u8 x u8 quad dot products");
        const std::string dot = call(sdot ? "vdotq_s32" : "vdotq_u32", {reinterpret(s.args[0], DType::i32, acc), reinterpret(s.args[1], DType::u32, b8),
                                                                       reinterpret(s.args[2], DType::u32, b8)});
        return w.assign(reinterpret(dot, acc, DType::i32));
      }
      case OpKind::DotU8I8: {  // usdot on the quads' bytes (neon+i8mm): vpdpbusd's products
        if (!w.cx.target.has("i8mm")) throw std::logic_error("dot_u8i8 needs the i8mm feature (target neon+i8mm)");
        w.cx.instructions.insert("usdot u8 x i8 quad dot products");
        return w.assign(call("vusdotq_s32", {s.args[0], reinterpret(s.args[1], DType::u32, DType::u8),
                                             reinterpret(s.args[2], DType::u32, DType::i8)}));
      }
      case OpKind::DotBf16Odd: {  // bfdot (neon+bf16): the u32 pairs read as bf16 x 8
        if (!w.cx.target.has("bf16")) throw std::logic_error("dot_bf16_odd needs the bf16 feature (target neon+bf16)");
        w.cx.instructions.insert("bfdot bf16 pair dot products");
        return w.assign(call("vbfdotq_f32", {s.args[0], call("vreinterpretq_bf16_u32", {s.args[1]}), call("vreinterpretq_bf16_u32", {s.args[2]})}));
      }
      case OpKind::DotBf16:  // an x86 instruction: only avx512+bf16 plans use it
      case OpKind::DotI16I16:  // an x86 instruction (vpmaddwd): only AVX2 and AVX-512 plans use it
        break;
    }
    throw std::logic_error("no NEON lowering for vector " + std::string(ir::nameOf(s.op)) + " on " + ir::toString(s.type));
  }

  bool inlinesPredicate(const Stmt& def, const LowerContext& cx) const override { return neon::inlinesPredicate(def, cx); }
  std::string predicateDeclaration(const Stmt& def, LowerContext& cx) const override { return neon::predicateDeclaration(def, cx); }

  std::string archGuard() const override { return "defined(__aarch64__)"; }
  std::string preamble() const override { return "#include <arm_neon.h>"; }
  std::string cpuSupport() const override {
    return "#if defined(__linux__) && __STDC_HOSTED__\n"
           "// getauxval() of <sys/auxv.h> under a name of our own: that header brings <elf.h> and its\n"
           "// thousands of macros, which would reach the next file of a unity build.\n"
           "extern \"C\" unsigned long simdgen_getauxval(unsigned long type) __asm__(\"getauxval\");\n"
           "#endif\n"
           "// The CPU's feature bits (Linux AT_HWCAP = 16 when word is 1, AT_HWCAP2 = 26 when 2); none\n"
           "// elsewhere, where only the NEON variants, which every AArch64 CPU runs, are chosen.\n"
           "__attribute__((unused)) static inline unsigned long simdgen_arm_hwcap(int word) {\n"
           "#if defined(__linux__) && __STDC_HOSTED__\n"
           "  return simdgen_getauxval(word == 2 ? 26 : 16);\n"
           "#else\n"
           "  (void)word;\n"
           "  return 0;\n"
           "#endif\n"
           "}";
  }
  std::string fileHelper(const std::string& name) const override {
    if (name == "load_prefix_neon")
      return "// The first `bytes` bytes at p (0..16), zeros above: fixed-size loads by the bits of `bytes`\n"
             "// (NEON has no masked load). Nothing past p + bytes is read, no libc call is made, and the\n"
             "// vector never goes through memory. Little-endian lanes.\n"
             "static inline uint8x16_t simdgen_load_prefix(const void* from, int64_t bytes) {\n"
             "  const uint8_t* p = (const uint8_t*)from;\n"
             "  if (bytes >= 16) return vld1q_u8(p);\n"
             + prefixLoadPieces() +
             "  return bytes & 8 ? vcombine_u8(vcreate_u8(lo), vcreate_u8(rest)) : vcombine_u8(vcreate_u8(rest), vcreate_u8(0));\n"
             "}";
    if (name == "store_prefix_neon")
      return "// Stores the first `bytes` bytes of v at p (0..16): fixed-size stores by the bits of `bytes`\n"
             "// (NEON has no masked store); nothing past p + bytes is written.\n"
             "static inline void simdgen_store_prefix(void* to, uint8x16_t v, int64_t bytes) {\n"
             "  uint8_t* p = (uint8_t*)to;\n"
             "  if (bytes >= 16) return vst1q_u8(p, v);\n"
             "  uint64_t rest = vgetq_lane_u64(vreinterpretq_u64_u8(v), 0);\n"
             + prefixStorePieces("vgetq_lane_u64(vreinterpretq_u64_u8(v), 1)") +
             "}";
    if (name == "tail_keep")
      return "// 16 zero bytes then 16 0xFF bytes: the 16 bytes at offset k keep the last k bytes of a vector.\n"
             "static const uint8_t simdgen_tail_keep[32] = {\n"
             "    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,\n"
             "    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};";
    if (name == "mul_u64x2")
      return "// Lane-wise 64-bit multiply (NEON has none); the low 64 bits are the same signed or unsigned.\n"
             "static inline uint64x2_t simdgen_mul_u64x2(uint64x2_t a, uint64x2_t b) {\n"
             "  return vcombine_u64(vcreate_u64(vgetq_lane_u64(a, 0) * vgetq_lane_u64(b, 0)),\n"
             "                      vcreate_u64(vgetq_lane_u64(a, 1) * vgetq_lane_u64(b, 1)));\n"
             "}";
    if (name.rfind("iota_u", 0) == 0) {
      const int bits = std::stoi(name.substr(6)), lanes = 128 / bits;
      std::string text = "// Lane indices 0, 1, 2, ...: whilelt compares them with the active-lane count.\n"
                         "static const uint" + std::to_string(bits) + "_t simdgen_" + name + "[" + std::to_string(lanes) + "] = {";
      for (int l = 0; l < lanes; ++l) text += (l ? ", " : "") + std::to_string(l);
      return text + "};";
    }
    return IsaLowering::fileHelper(name);
  }

 private:
  // Predicated ops: loads and stores touch active lanes only; arithmetic selects its result
  // against args[0] (merging) or zero; reductions fold the identity in inactive lanes.
  void lowerPredicated(NeonWriter& x) const {
    OpWriter& w = x.w;
    const Stmt& s = w.s;
    const DType t = s.type.elem;
    switch (s.op) {
      case OpKind::Load: return maskedLoad(w);
      case OpKind::Store: return maskedStore(w);
      case OpKind::GatherRows: return x.gatherRows();
      case OpKind::ScatterRows: return x.scatterRows();
      case OpKind::Binary:
      case OpKind::Fma: {
        const std::string full = s.op == OpKind::Fma ? call("vfmaq_" + sfx(t), {s.args[0], s.args[1], s.args[2]})
                                                     : binary(s.rop, t, s.args[0], s.args[1], w.cx);
        const std::string other = s.zeroing ? splat(t, "0") : s.args[0];
        return w.assign(select(t, predicate(s.pred, w.cx), full, other));
      }
      case OpKind::ReduceLanes: {
        const VecType v = w.typeOf(s.args[0]);
        const std::string active = w.cx.local(s, "_active");
        w.out.push_back(vecType(v.elem, v.lanes) + " " + active + " = " +
                        select(v.elem, predicate(s.pred, w.cx), s.args[0], splat(v.elem, identityLiteral(s.rop, v.elem))) + ";");
        w.cx.types[active] = v;
        return x.reduceLanes(active);
      }
      default: break;
    }
    throw std::logic_error("no NEON lowering for predicated " + std::string(ir::nameOf(s.op)));
  }
};

}  // namespace

const IsaLowering& neonLowering() {
  static const NeonLowering module;
  return module;
}

}  // namespace simdgen::emit
