// SPDX-License-Identifier: Apache-2.0
// The SVE module: ACLE intrinsics (arm_sve.h) on sizeless vectors of vscale * 128 bits. Every op of
// a scalable plan maps to one predicated instruction or a short sequence; predicates are svbool_t
// values (whilelt, compares), never materialised masks. One-lane values go to the scalar module.
// Horizontal folds that depend on order (floats, multiplication) follow the plan's order exactly
// (halves, then lanes), so results match the interpreter bit for bit at every vector length.
#include "emit/sve_lowering.h"

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "emit/c_scalar.h"
#include "emit/neon_lowering.h"
#include "emit/scalar_lowering.h"
#include "emit/sve_spelling.h"

namespace simdgen::emit {

using c::call;
using c::ctype;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;
using namespace sve;

namespace {

// The most lanes of t any SVE vector has (2048 bits): the size of stack tiles.
std::string maxLanes(DType t) { return std::to_string(2048 / bitsOf(t)); }

// Element widths that differ: every vector has the widest type's lane count L, and a narrower
// value is unpacked, one element per container of the widest width (element k in lane k * W / w
// of its own vector type, the low bits of container k), the form SVE's extending loads, truncating
// stores and widening/narrowing conversions (ld1b into .S lanes, st1b, uxtb/sxtb, fcvt .D <-> .S)
// read and write. Lane-wise ops in the narrow type then compute every container's low element
// with the narrow type's own semantics (wrap, saturation, compares); the lanes between them are
// never read. A predicate over containers (whilelt_bW) governs the same elements at either width:
// its bit for container k is the bit of lane k * W / w, and a compare of narrow lanes sets it.
bool unpacked(VecType t) { return t.scalable && t.lanes > 1 && !t.predicate && t.bits() < 128; }
int containerBits(VecType t) { return 128 / t.lanes; }
DType containerOf(VecType t, bool isSignedContainer) { return integerOf(isSignedContainer ? DType::i8 : DType::u8, containerBits(t)); }
// The extending-load / truncating-store letter of a width: ld1b, ld1h, ld1w.
std::string widthLetter(DType t) { return bitsOf(t) == 8 ? "b" : bitsOf(t) == 16 ? "h" : "w"; }
// The .S predicate of the first L lanes from a .D predicate over L containers (f32 elements of a
// vector whose widest type has 64 bits): uzp1 keeps the even .S lanes, the bit of each container.
std::string packedPredicate(const std::string& containers) { return call("svuzp1_b32", {containers, "svpfalse_b()"}); }

struct SveWriter {
  OpWriter& w;
  const Stmt& s = w.s;
  LowerContext& cx = w.cx;
  std::vector<std::string>& out = w.out;

  VecType typeOf(const std::string& v) const { return w.typeOf(v); }
  std::string carry(const std::string& v) const { return c::carried(v, s.type.elem, cx.plan.rop); }
  std::string governing() const { return s.pred.empty() ? all(s.type.elem) : s.pred; }

  // The predicate that governs a load of s.type: over containers when the vector is unpacked.
  std::string governingContainers() const { return s.pred.empty() && unpacked(s.type) ? all(containerOf(s.type, false)) : governing(); }

  // An unpacked vector from memory: integers by an extending load into the containers (their
  // own pointer type, so no cast); f32 in 64-bit containers packed into the low half, then
  // zip1 with itself puts element k in lane 2k.
  std::string loadUnpacked(const std::string& pg) {
    const DType t = s.type.elem;
    cx.instructions.insert("unpacked narrow elements: extending loads and truncating stores (ld1b/h/w, st1b/h/w)");
    if (isFloat(t)) {
      const std::string packed = s.dst + "_packed";
      out.push_back("const svfloat32_t " + packed + " = " + call("svld1_f32", {packedPredicate(pg), w.in(s.index)}) + ";");
      return call("svzip1_f32", {packed, packed});
    }
    const DType c = containerOf(s.type, isSigned(t));
    cx.extendedContainers.insert(s.dst);
    return reinterpret(call("svld1" + std::string(isSigned(t) ? "s" : "u") + widthLetter(t) + "_" + sfx(c), {pg, w.in(s.index)}), c, t);
  }

  void load() {
    const DType t = s.type.elem;
    const std::string pg = governingContainers();
    const std::string loaded = unpacked(s.type) ? loadUnpacked(pg) : call("svld1_" + sfx(t), {pg, w.in(s.index)});
    // Inactive lanes of a predicated load are zero; another fill is selected in.
    if (s.pred.empty() || s.literal.empty() || c::isZeroLiteral(s.literal)) return w.assign(loaded);
    cx.instructions.insert("predicated loads, inactive lanes selected to the identity");
    w.assign(call("svsel_" + sfx(t), {pg, loaded, splat(t, s.literal)}));
  }

  void store() {
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    if (!unpacked(v)) return out.push_back(call("svst1_" + sfx(t), {s.pred.empty() ? all(t) : s.pred, w.outp(s.index), s.args[0]}) + ";");
    // Unpacked: a truncating store of the containers' low elements; f32 packed by uzp1 first.
    const std::string pg = s.pred.empty() ? all(containerOf(v, false)) : s.pred;
    if (isFloat(t))
      return out.push_back(call("svst1_f32", {packedPredicate(pg), w.outp(s.index), call("svuzp1_f32", {s.args[0], s.args[0]})}) + ";");
    const DType c = containerOf(v, isSigned(t));
    out.push_back(call("svst1" + widthLetter(t) + "_" + sfx(c), {pg, w.outp(s.index), reinterpret(s.args[0], t, c)}) + ";");
  }

  // Widening, one doubling at a time: unpack the low or high half (sunpklo/hi, uunpklo/hi) in the
  // source's signedness (C's conversion), reinterpreted to the destination at the end.
  void extend() {
    const DType from = typeOf(s.args[0]).elem, to = s.type.elem;
    if (typeOf(s.args[0]).lanes == s.type.lanes) return extendUnpacked();
    if (isFloat(from) || isFloat(to)) {
      if (from != DType::f32 || to != DType::f64) throw std::logic_error("no SVE extend " + std::string(nameOf(from)) + " -> " + std::string(nameOf(to)));
      // fcvt converts the even f32 lanes; zip1/zip2 of x with itself puts the low/high half there.
      const std::string zipped = call(s.part == 0 ? "svzip1_f32" : "svzip2_f32", {s.args[0], s.args[0]});
      return w.assign(call("svcvt_f64_f32_x", {all(DType::f64), zipped}));
    }
    cx.instructions.insert("sunpklo/uunpklo widening");
    std::string x = s.args[0];
    DType cur = from;
    int factor = bitsOf(to) / bitsOf(from), part = s.part;
    while (factor > 1) {
      factor /= 2;
      const bool high = part >= factor;
      part %= factor;
      const DType next = integerOf(cur, bitsOf(cur) * 2);
      x = call((high ? "svunpkhi_" : "svunpklo_") + sfx(next), {x});
      cur = next;
    }
    w.assign(reinterpret(x, cur, to));
  }

  // Widening an unpacked vector in place: each container's low element extended by its
  // signedness to the wider type (uxtb/sxtb, uxth/sxth, uxtw/sxtw); f32 -> f64 is fcvt, which
  // reads the even .S lanes, where unpacked f32 elements are.
  void extendUnpacked() {
    const DType from = typeOf(s.args[0]).elem, to = s.type.elem;
    if (isFloat(from) || isFloat(to)) {
      if (from != DType::f32 || to != DType::f64) throw std::logic_error("no SVE extend " + std::string(nameOf(from)) + " -> " + std::string(nameOf(to)));
      return w.assign(call("svcvt_f64_f32_x", {all(DType::f64), s.args[0]}));
    }
    const DType wide = integerOf(from, bitsOf(to));  // the destination's width in the source's signedness
    std::string x = reinterpret(s.args[0], from, wide);
    // Extended already when the containers are the destination's (an extending load into them).
    if (!cx.extendedContainers.count(s.args[0]) || bitsOf(to) != containerBits(s.type)) {
      cx.instructions.insert("uxtb/sxtb, uxth/sxth, uxtw/sxtw widening of unpacked elements");
      x = call("svext" + widthLetter(from) + "_" + sfx(wide) + "_x", {all(wide), x});
    }
    w.assign(reinterpret(x, wide, to));
  }

  void dotAccumulate() {
    const DType from = typeOf(s.args[1]).elem, acc = s.type.elem;
    if (s.group == 4 && bitsOf(acc) == 4 * bitsOf(from)) {
      const std::string ones = "ones_" + sfx(from);
      cx.hoist("const " + vecType(from) + " " + ones + " = " + splat(from, "1") + ";");
      cx.instructions.insert(std::string(isSigned(from) ? "sdot" : "udot") + ": 4 inputs per lane against a ones vector");
      return w.assign(call("svdot_" + sfx(acc), {s.args[0], s.args[1], ones}));
    }
    if (s.group == 2 && bitsOf(acc) == 2 * bitsOf(from) && cx.target.isa == "sve2") {
      cx.instructions.insert(std::string(isSigned(from) ? "sadalp" : "uadalp") + ": pairwise widening add-accumulate (SVE2)");
      return w.assign(call("svadalp_" + sfx(acc) + "_x", {all(acc), s.args[0], s.args[1]}));
    }
    throw std::logic_error("no SVE dot_accumulate " + std::string(nameOf(from)) + " -> " + std::string(nameOf(acc)) +
                           " in groups of " + std::to_string(s.group));
  }

  // dst = fold(v) over the lanes of pg (inactive lanes: the identity), in the plan's order.
  void reduceLanes() {
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const ReduceOp op = s.rop;
    const std::string pg = s.pred.empty() ? all(t) : s.pred;
    if (s.pairwise) {
      // faddv folds adjacent lanes first and reads inactive lanes as +0.0, the identity of add.
      if (!isFloat(t) || op != ReduceOp::add) throw std::logic_error("SVE pairwise reduce_lanes: float sums only");
      cx.instructions.insert("faddv: the pairwise float sum across the vector");
      return w.assign(call("svaddv_" + sfx(t), {pg, s.args[0]}));
    }
    // Integer add, min, max and bitwise ops do not depend on the order: one across-vector
    // instruction that skips inactive lanes (addv sums in 64 bits; the low bits are the wrapped sum).
    if (!isFloat(t) && op != ReduceOp::mul) {
      cx.instructions.insert("uaddv/saddv, sminv/smaxv, andv/orv/eorv across the vector");
      std::string name;
      switch (op) {
        case ReduceOp::add: name = "svaddv_"; break;
        case ReduceOp::min: name = "svminv_"; break;
        case ReduceOp::max: name = "svmaxv_"; break;
        case ReduceOp::bit_and: name = "svandv_"; break;
        case ReduceOp::bit_or: name = "svorv_"; break;
        default: name = "sveorv_"; break;
      }
      std::string r = call(name + sfx(t), {pg, s.args[0]});
      if (op == ReduceOp::add) r = "(" + ctype(t) + ")(" + ctype(unsignedOf(t)) + ")" + r;
      return w.assign(carry(r));
    }
    // The plan's order: rop(lower half, upper half) until one lane is left; the upper half is
    // brought down by a table lookup (lanes past the end read zero and are never used).
    cx.instructions.insert("horizontal folds in the plan's order (halves by svtbl, then lane 0)");
    const std::string fold = s.dst + "_fold", u = usfx(t);
    out.push_back(vecType(t) + " " + fold + " = " +
                  (s.pred.empty() ? s.args[0] : call("svsel_" + sfx(t), {pg, s.args[0], splat(t, identityLiteral(op, t))})) + ";");
    const std::string upper = call("svtbl_" + sfx(t), {fold, call("svindex_" + u, {"(" + ctype(unsignedOf(t)) + ")half", "1"})});
    out.push_back("for (uint64_t half = " + count(t) + " / 2; half > 0; half /= 2)");
    out.push_back("  " + fold + " = " + binary(op, t, all(t), fold, upper, Form::any) + ";");
    w.assign(carry(call("svlasta_" + sfx(t), {"svpfalse_b()", fold})));  // lasta with no lane active: lane 0
  }

  std::string shuffle(const ir::Shuffle& sh, VecType type, const std::string& a, const std::string& b) {
    using K = ir::Shuffle::Kind;
    const DType t = type.elem;
    std::string name;
    switch (sh.kind) {
      case K::zip1: name = "svzip1_"; break;
      case K::zip2: name = "svzip2_"; break;
      case K::uzp1: name = "svuzp1_"; break;
      case K::uzp2: name = "svuzp2_"; break;
      case K::trn1: name = "svtrn1_"; break;
      case K::trn2: name = "svtrn2_"; break;
      default: throw std::logic_error("no SVE lowering for shuffle " + sh.str() + " (scalable vectors take whole-vector permutes)");
    }
    const int unit = sh.unitBits ? sh.unitBits : bitsOf(t);
    const DType u = unit == bitsOf(t) ? t : integerOf(DType::u8, unit);
    return reinterpret(call(name + sfx(u), {reinterpret(a, t, u), reinterpret(b, t, u)}), u, t);
  }

  // Lane r reads element index + r * stride (columns of rows; a map's strided input). Hardware
  // gathers (svld1_gather_index, the extending svld1ub/uh/sb/sh/sw forms into 32/64-bit lanes;
  // 8/16-bit lanes as 32-bit containers narrowed by uzp1) read the active lanes only; lane offsets
  // are 64-bit for 64-bit lanes, 32-bit otherwise (larger strides call the scalar variant).
  // Anything else fills a stack tile as large as the largest vector.
  void gatherRows() {
    if (structureLoad()) return;
    if (hardwareGather()) return;
    tileGather();
  }

  // A constant stride of 2 to 4 over whole registers whose structures may all be read (the
  // plan's readAhead): one svld2/svld3/svld4 and its first member, instead of a gather. Under a
  // predicate it reads the active lanes' structures only, and inactive lanes are zero.
  bool structureLoad() {
    const auto k = s.stride.constantValue();
    const DType t = s.type.elem;
    if (s.readAhead < 0 || unpacked(s.type) || w.source().dtype != t || !k || *k < 2 || *k > 4) return false;
    cx.instructions.insert("strided lanes by structure loads (svld2/svld3/svld4, one member kept)");
    const std::string n = std::to_string(*k), pg = s.pred.empty() ? all(t) : governingContainers();
    const std::string loaded = call("svget" + n + "_" + sfx(t), {call("svld" + n + "_" + sfx(t), {pg, "(" + w.src() + " + " + s.index.str() + ")"}), "0"});
    if (s.pred.empty() || s.literal.empty() || c::isZeroLiteral(s.literal)) return (w.assign(loaded), true);
    w.assign(call("svsel_" + sfx(t), {pg, loaded, splat(t, s.literal)}));
    return true;
  }

  bool hardwareGather() {
    if (unpacked(s.type)) return unpackedGather();
    const DType t = s.type.elem, from = w.source().dtype;
    const bool narrowLanes = bitsOf(t) < 32;
    if (isFloat(t) != isFloat(from) || (narrowLanes ? from != t : bitsOf(from) > bitsOf(t)) || (isFloat(t) && from != t)) return false;
    const int offsetBits = bitsOf(t) == 64 ? 64 : 32;
    if (offsetBits == 32 && offsetsOverflow()) return false;
    const DType lane = narrowLanes ? DType::u32 : t;  // the gather's lane type
    const DType idx = offsetBits == 64 ? DType::i64 : DType::i32;
    const std::string offsets = gatherOffsets(offsetBits);
    // One gather of `lane` lanes from element `first`, governed by pg.
    auto gather = [&](const std::string& pg, const std::string& first) {
      const std::string base = "(" + w.src() + " + " + first + ")";
      if (bitsOf(from) == bitsOf(lane))  // the same width: the element's own type, reinterpreted
        return reinterpret(call("svld1_gather_" + sfx(idx) + "index_" + sfx(from), {pg, base, offsets}), from, lane);
      const std::string kind = std::string(isSigned(from) && !narrowLanes ? "s" : "u") + (bitsOf(from) == 8 ? "b" : bitsOf(from) == 16 ? "h" : "w");
      const DType d = narrowLanes ? DType::u32 : t;
      const std::string ptr = "(const " + ctype(isSigned(from) && !narrowLanes ? from : unsignedOf(from)) + "*)" + base;
      if (bitsOf(from) == 8)  // bytes: an offset is an index
        return call("svld1" + kind + "_gather_" + sfx(idx) + "offset_" + sfx(d), {pg, ptr, offsets});
      return call("svld1" + kind + "_gather_" + sfx(idx) + "index_" + sfx(d), {pg, ptr, offsets});
    };
    const std::string pg = governing();
    std::string result;
    if (!narrowLanes) {
      result = gather(pg, s.index.str());
    } else {
      // 8/16-bit lanes: 32-bit containers in order, their predicates the unpacked halves of pg.
      const int parts = 32 / bitsOf(t);
      std::vector<std::string> preds{pg};
      while (int(preds.size()) < parts) {
        std::vector<std::string> next;
        for (const std::string& p : preds) next.push_back("svunpklo_b(" + p + ")"), next.push_back("svunpkhi_b(" + p + ")");
        preds = next;
      }
      std::vector<std::string> pieces;
      for (int k = 0; k < parts; ++k) {
        const std::string name = s.dst + "_g" + std::to_string(k);
        const std::string first = s.index.str() + (k ? " + (int64_t)svcntw() * " + std::to_string(k) + " * " + s.stride.str() : "");
        out.push_back("const svuint32_t " + name + " = " + gather(preds[size_t(k)], first) + ";");
        pieces.push_back(name);
      }
      // uzp1 keeps the even (low) halves: 32 -> 16 bits, then 16 -> 8.
      DType cur = DType::u32;
      while (bitsOf(cur) > bitsOf(t)) {
        const DType half = integerOf(DType::u8, bitsOf(cur) / 2);
        std::vector<std::string> next;
        for (size_t k = 0; k < pieces.size(); k += 2)
          next.push_back(call("svuzp1_" + sfx(half), {reinterpret(pieces[k], cur, half), reinterpret(pieces[k + 1], cur, half)}));
        pieces = next;
        cur = half;
      }
      result = reinterpret(pieces[0], cur, t);
    }
    if (!s.pred.empty() && !s.literal.empty() && !c::isZeroLiteral(s.literal)) result = call("svsel_" + sfx(t), {pg, result, splat(t, s.literal)});
    w.assign(result);
    return true;
  }

  // The lane offsets of a gather with `offsetBits`-bit lanes, hoisted: lane r reads element r * stride.
  std::string gatherOffsets(int offsetBits) {
    const DType idx = offsetBits == 64 ? DType::i64 : DType::i32;
    const std::string offsets = "offsets" + std::to_string(offsetBits) + "_" + c::identifierOf(s.stride.str());
    cx.hoist("// Lane offsets for the gathers: lane r reads element r * " + s.stride.str() + ".");
    cx.hoist("const " + vecType(idx) + " " + offsets + " = " + call("svindex_" + sfx(idx), {"0", "(" + ctype(idx) + ")" + s.stride.str()}) + ";");
    cx.instructions.insert("ld1 gathers (lane r reads element r * stride)");
    return offsets;
  }

  // Whether 32-bit lane offsets cannot reach the last lane of the largest vector: the static
  // stride takes the tile, a runtime one calls the scalar variant when it is that large.
  bool offsetsOverflow() {
    const int64_t maxLaneIndex = 2048 / 32 - 1;  // the largest vector's last 32-bit lane
    const auto fixed = s.stride.constantValue();
    if (fixed && *fixed > 2147483647 / maxLaneIndex) return true;
    if (!fixed) cx.scalarFallbackWhen.insert(s.stride.str() + " > 2147483647 / " + std::to_string(maxLaneIndex));
    return false;
  }

  // An unpacked vector gathered: integers by one extending gather into the containers; f32 in
  // 64-bit containers gathered packed (32-bit offsets) into the low half, then zip1.
  bool unpackedGather() {
    const DType t = s.type.elem, from = w.source().dtype;
    if (from != t) return false;
    const std::string pg = governingContainers(), base = "(" + w.src() + " + " + s.index.str() + ")";
    std::string result;
    if (isFloat(t)) {
      if (offsetsOverflow()) return false;
      const std::string packed = s.dst + "_packed";
      out.push_back("const svfloat32_t " + packed + " = " + call("svld1_gather_s32index_f32", {packedPredicate(pg), base, gatherOffsets(32)}) + ";");
      result = call("svzip1_f32", {packed, packed});
    } else {
      const int offsetBits = containerBits(s.type);
      // SVE gathers fill 32- and 64-bit containers only: bytes in 16-bit containers (beside
      // 16-bit values) take the stack tile.
      if (offsetBits < 32 || (offsetBits == 32 && offsetsOverflow())) return false;
      const DType c = containerOf(s.type, isSigned(t));
      const std::string kind = std::string(isSigned(t) ? "s" : "u") + widthLetter(t);
      const std::string idx = offsetBits == 64 ? "s64" : "s32";
      result = reinterpret(call("svld1" + kind + "_gather_" + idx + (bitsOf(t) == 8 ? "offset_" : "index_") + sfx(c), {pg, base, gatherOffsets(offsetBits)}), c, t);
      if (s.pred.empty() || s.literal.empty() || c::isZeroLiteral(s.literal)) cx.extendedContainers.insert(s.dst);
    }
    if (!s.pred.empty() && !s.literal.empty() && !c::isZeroLiteral(s.literal)) result = call("svsel_" + sfx(t), {pg, result, splat(t, s.literal)});
    w.assign(result);
    return true;
  }

  void tileGather() {
    if (unpacked(s.type)) return unpackedTileGather();
    const DType t = s.type.elem;
    const std::string stage = s.dst + "_stage";
    cx.instructions.insert("columns filled lane by lane through a stack tile");
    out.push_back(ctype(t) + " " + stage + "[" + maxLanes(t) + "];");
    std::string read = "(" + ctype(t) + ")" + w.src() + "[" + s.index.str() + " + lane * " + s.stride.str() + "]";
    if (!s.pred.empty()) {
      const std::string active = w.cx.local(s, "_active"), u = usfx(t);
      out.push_back(ctype(unsignedOf(t)) + " " + active + "[" + maxLanes(t) + "];");
      out.push_back(call("svst1_" + u, {all(t), active, call("svsel_" + u, {s.pred, splat(unsignedOf(t), "1"), splat(unsignedOf(t), "0")})}) + ";");
      read = active + "[lane] ? " + read + " : (" + ctype(t) + ")(" + (s.literal.empty() ? "0" : s.literal) + ")";
    }
    out.push_back("for (int64_t lane = 0; lane < (int64_t)" + count(t) + "; ++lane) " + stage + "[lane] = " + read + ";");
    w.assign(call("svld1_" + sfx(t), {all(t), stage}));
  }

  // Lane r writes element index + r * stride (a map's strided output). 32/64-bit lanes: one st1w/
  // st1d scatter with the gathers' lane offsets (active lanes only); 8/16-bit lanes (SVE scatters
  // store from 32/64-bit containers) and unpacked values: a stack tile as large as the largest
  // vector, then each active lane to its element.
  void scatterRows() {
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const std::string target = w.cx.plan.outputTensor(s.tensor).name;
    if (!unpacked(v) && bitsOf(t) >= 32 && !(bitsOf(t) == 32 && offsetsOverflow())) {
      cx.instructions.insert("st1 scatters (lane r writes element r * stride)");
      out.push_back(call("svst1_scatter_" + std::string(bitsOf(t) == 64 ? "s64" : "s32") + "index_" + sfx(t),
                         {s.pred.empty() ? all(t) : s.pred, "(" + target + " + " + s.index.str() + ")", gatherOffsets(bitsOf(t)), s.args[0]}) +
                    ";");
      return;
    }
    cx.instructions.insert("strided stores: the vector stored to a stack tile, then each lane to its element");
    // The lanes' type in the tile: the containers of an unpacked integer vector (truncated when
    // written), f32 packed by uzp1 as the plain store does.
    const DType lane = unpacked(v) ? containerOf(v, false) : t;
    const DType tile = unpacked(v) && isFloat(t) ? DType::f32 : lane;
    std::string value = s.args[0];
    if (unpacked(v)) value = isFloat(t) ? call("svuzp1_f32", {value, value}) : reinterpret(value, t, lane);
    out.push_back("{");
    out.push_back(ctype(tile) + " scattered[" + maxLanes(tile) + "];");
    out.push_back(call("svst1_" + sfx(tile), {all(tile), "scattered", value}) + ";");
    std::string active;
    if (!s.pred.empty()) {
      const std::string u = usfx(lane);
      out.push_back(ctype(unsignedOf(lane)) + " scattered_on[" + maxLanes(lane) + "];");
      out.push_back(call("svst1_" + u, {all(lane), "scattered_on", call("svsel_" + u, {s.pred, splat(unsignedOf(lane), "1"), splat(unsignedOf(lane), "0")})}) + ";");
      active = "scattered_on[lane]";
    }
    out.push_back(scatteredLanesLoop(w, "(int64_t)" + count(lane), active, "(" + ctype(t) + ")"));
    out.push_back("}");
  }

  // An unpacked vector lane by lane: element k of the row at k * W / w of a zeroed stack tile of
  // the narrow type, loaded whole (the lanes between elements are zero).
  void unpackedTileGather() {
    const DType t = s.type.elem;
    const DType c = containerOf(s.type, false);
    const std::string stage = s.dst + "_stage", ratio = std::to_string(bitsOf(c) / bitsOf(t));
    cx.instructions.insert("columns filled lane by lane through a stack tile");
    out.push_back(ctype(t) + " " + stage + "[" + maxLanes(t) + "] = {};");
    std::string read = "(" + ctype(t) + ")" + w.src() + "[" + s.index.str() + " + lane * " + s.stride.str() + "]";
    if (!s.pred.empty()) {
      const std::string active = w.cx.local(s, "_active");
      out.push_back(ctype(c) + " " + active + "[" + maxLanes(c) + "];");
      out.push_back(call("svst1_" + sfx(c), {all(c), active, call("svsel_" + sfx(c), {s.pred, splat(c, "1"), splat(c, "0")})}) + ";");
      read = active + "[lane] ? " + read + " : (" + ctype(t) + ")(" + (s.literal.empty() ? "0" : s.literal) + ")";
    }
    out.push_back("for (int64_t lane = 0; lane < (int64_t)" + count(c) + "; ++lane) " + stage + "[lane * " + ratio + "] = " + read + ";");
    w.assign(call("svld1_" + sfx(t), {all(t), stage}));
  }

  // The first or last c in [lo, hi) with tensor[index + c] == a: whole predicated vectors, the
  // lane found by brkb (lanes before the first hit) and cntp; the last one on the reversed hits.
  void locateEqual() {
    const DType t = w.source().dtype;
    const std::string b = std::to_string(bitsOf(t));
    const std::string n = "(int64_t)" + count(t), c = s.dst + "_c", want = s.dst + "_want";
    cx.instructions.insert("block rescan: whilelt-governed compares, brkb + cntp for the lane");
    VectorSearch search{{}, s.part == 1 ? s.lo.str() : s.hi.str()};
    auto& v = search.lines;
    v.push_back("const " + vecType(t) + " " + want + " = " + splat(t, s.args[0]) + ";");
    const std::string hits = "svcmpeq_" + sfx(t) + "(in, svld1_" + sfx(t) + "(in, " + w.in(s.index) + " + base), " + want + ")";
    if (s.part == 0) {
      v.push_back("for (int64_t " + c + " = " + s.lo.str() + "; " + c + " < " + s.hi.str() + "; " + c + " += " + n + ") {");
      v.push_back("const int64_t base = " + c + ";");
    } else {
      v.push_back("for (int64_t " + c + " = " + s.hi.str() + "; " + c + " > " + s.lo.str() + "; " + c + " -= " + n + ") {");
      v.push_back("const int64_t base = " + c + " - " + n + " > " + s.lo.str() + " ? " + c + " - " + n + " : " + s.lo.str() + ";");
    }
    v.push_back("const svbool_t in = svwhilelt_b" + b + "_s64(base, " + (s.part == 0 ? s.hi.str() : c) + ");");
    v.push_back("const svbool_t hit = " + hits + ";");
    if (s.part == 0)
      v.push_back("if (svptest_any(in, hit)) { " + s.dst + " = base + (int64_t)svcntp_b" + b + "(in, svbrkb_b_z(in, hit)); break; }");
    else
      v.push_back("if (svptest_any(in, hit)) { " + s.dst + " = base + " + n + " - 1 - (int64_t)svcntp_b" + b + "(" + all(t) +
                  ", svbrkb_b_z(" + all(t) + ", svrev_b" + b + "(hit))); break; }");
    v.push_back("}");
    writeLocateEqual(w, search);
  }

  void nanMask() {
    const DType f = typeOf(s.args[0]).elem, u = unsignedOf(f);
    const std::string nan = call("svcmpuo_" + sfx(f), {all(f), s.args[0], s.args[0]});
    w.assign(reinterpret(call("svsel_" + usfx(f), {nan, splat(u, "(" + ctype(u) + ")~(" + ctype(u) + ")0"), splat(u, "0")}), u, s.type.elem));
  }

  // Predicates: whilelt, compares, not and the bitwise ops, all zeroing under an all-true pg.
  void predicateOp() {
    const DType t = s.type.elem;
    const std::string b = std::to_string(bitsOf(t));
    switch (s.op) {
      case OpKind::WhileLt: return w.assign(call("svwhilelt_b" + b + "_s64", {s.lo.str(), s.hi.str()}));
      case OpKind::Not: return w.assign(call("svnot_b_z", {all(t), s.args[0]}));
      case OpKind::Binary: {
        const std::string op = s.rop == ReduceOp::bit_and ? "svand_b_z" : s.rop == ReduceOp::bit_or ? "svorr_b_z" : "sveor_b_z";
        return w.assign(call(op, {all(t), s.args[0], s.args[1]}));
      }
      case OpKind::Compare: {
        const DType a = typeOf(s.args[0]).elem;
        return w.assign(compare(s.cmp, a, all(a), s.args[0], s.args[1]));
      }
      default: throw std::logic_error("no SVE lowering for predicate " + std::string(ir::nameOf(s.op)));
    }
  }

  void arithmetic() {
    const DType t = s.type.elem;
    const Form form = s.pred.empty() ? Form::any : s.zeroing ? Form::zero : Form::merge;
    const std::string pg = governing();
    if (s.op == OpKind::Binary) return w.assign(binary(s.rop, t, pg, s.args[0], s.args[1], form));
    // Fma: a + b * c with one rounding (fmla / mla).
    cx.instructions.insert(isFloat(t) ? "fmla fused multiply-add" : "mla multiply-add");
    const std::string sf = form == Form::any ? "_x" : form == Form::merge ? "_m" : "_z";
    w.assign(call("svmla_" + sfx(t) + sf, {pg, s.args[0], s.args[1], s.args[2]}));
  }
};

// A conversion to a narrower type, whose result is unpacked (element k in the low bits of
// container k): integers wrap by keeping the low bits (a reinterpretation) or clamp to the
// destination's range first; f64 -> f32 and 64-bit integers -> f32 are fcvt / scvtf / ucvtf into
// the even .S lanes (one rounding).
std::string narrowExpr(const Stmt& s, DType f) {
  const DType t = s.type.elem;
  const std::string a = s.args[0], pg = all(f);
  if (isFloat(t)) return call("svcvt_" + sfx(t) + "_" + sfx(f) + "_x", {pg, a});
  if (isFloat(f)) throw std::logic_error("no SVE narrowing " + std::string(nameOf(f)) + " -> " + std::string(nameOf(t)));
  if (s.conv != ConvMode::sat) return reinterpret(a, f, t);
  const int tb = bitsOf(t);
  const std::string hi = isSigned(t) ? std::to_string((int64_t{1} << (tb - 1)) - 1) : std::to_string((int64_t{1} << tb) - 1);
  std::string x = a;
  if (isSigned(f)) x = call("svmax_n_" + sfx(f) + "_x", {pg, x, isSigned(t) ? "-" + std::to_string(int64_t{1} << (tb - 1)) : "0"});
  x = call("svmin_n_" + sfx(f) + "_x", {pg, x, hi});
  return reinterpret(x, f, t);
}

// Convert between types of one width: SVE has every case natively, with the defined semantics
// (fcvtzs/u saturate and give 0 for NaN; frintn/m/p round first; scvtf/ucvtf round to nearest even).
std::string convertExpr(const Stmt& s, DType f) {
  const DType t = s.type.elem;
  const std::string a = s.args[0], pg = all(f);
  const int eb = bitsOf(t);
  if (!isFloat(f) && !isFloat(t)) {
    if (s.conv != ConvMode::sat || isSigned(f) == isSigned(t)) return reinterpret(a, f, t);
    if (isSigned(f)) return reinterpret(call("svmax_n_" + sfx(f) + "_x", {pg, a, "0"}), f, t);
    return reinterpret(call("svmin_n_" + sfx(f) + "_x", {pg, a, std::to_string((uint64_t{1} << (eb - 1)) - 1) + "ull"}), f, t);
  }
  if (isFloat(f) && !isFloat(t) && s.conv != ConvMode::trunc && s.conv != ConvMode::plain) {
    const std::string r = s.conv == ConvMode::nearest ? "svrintn_" : s.conv == ConvMode::floor ? "svrintm_" : "svrintp_";
    return call("svcvt_" + sfx(t) + "_" + sfx(f) + "_x", {pg, call(r + sfx(f) + "_x", {pg, a})});
  }
  return call("svcvt_" + sfx(t) + "_" + sfx(f) + "_x", {pg, a});
}

class SveLowering final : public IsaLowering {
 public:
  std::string typeName(VecType t, const LowerContext& cx) const override {
    if (t.lanes == 1) return scalarLowering().typeName(t, cx);
    if (!t.scalable) throw std::logic_error("SVE vectors are scalable, not " + ir::toString(t));
    return t.predicate ? "svbool_t" : vecType(t.elem);
  }

  void lower(OpWriter& w) const override {
    if (isOneLaneOp(w)) return scalarLowering().lower(w);
    SveWriter x{w};
    const Stmt& s = w.s;
    w.cx.extendedContainers.erase(s.dst);  // a new definition (loads mark theirs again)
    const DType t = s.type.elem;
    if (s.type.predicate) return x.predicateOp();
    switch (s.op) {
      case OpKind::Splat: return w.assign(splat(t, s.args.empty() ? s.literal : s.args[0]));
      case OpKind::Load: return x.load();
      case OpKind::LoadBroadcast: return w.assign(splat(t, w.src() + "[" + s.index.str() + "]"));
      case OpKind::GatherRows: return x.gatherRows();
      case OpKind::ScatterRows: return x.scatterRows();
      case OpKind::Store:
        if (s.streaming) break;  // only x86 plans stream their stores
        return x.store();
      case OpKind::Extend: return x.extend();
      case OpKind::Binary: return x.arithmetic();
      case OpKind::Fma: return x.arithmetic();
      case OpKind::Sub: return w.assign(call("svsub_" + sfx(t) + "_x", {all(t), s.args[0], s.args[1]}));
      case OpKind::Neg:  // fneg flips the sign bit; integers wrap (0 - x: subr from 0 when unsigned)
        if (!isFloat(t) && !isSigned(t)) return w.assign(call("svsubr_n_" + sfx(t) + "_x", {all(t), s.args[0], "0"}));
        return w.assign(call("svneg_" + sfx(t) + "_x", {all(t), s.args[0]}));
      case OpKind::Div:
        if (!isFloat(t)) break;
        return w.assign(call("svdiv_" + sfx(t) + "_x", {all(t), s.args[0], s.args[1]}));
      case OpKind::Popcount:  // cnt at every width (unpacked lanes: each container's low element)
        return w.assign(reinterpret(call("svcnt_" + sfx(t) + "_x", {all(t), s.args[0]}), unsignedOf(t), t));
      case OpKind::Abs:  // sabs keeps the most negative integer (wraps), fabs clears the sign bit
        if (!isFloat(t) && !isSigned(t)) return w.assign(s.args[0]);
        return w.assign(call("svabs_" + sfx(t) + "_x", {all(t), s.args[0]}));
      case OpKind::Sqrt: return w.assign(call("svsqrt_" + sfx(t) + "_x", {all(t), s.args[0]}));
      case OpKind::AddSat: return w.assign(call("svqadd_" + sfx(t), {s.args[0], s.args[1]}));  // sqadd / uqadd, unpredicated
      case OpKind::SubSat: return w.assign(call("svqsub_" + sfx(t), {s.args[0], s.args[1]}));
      case OpKind::AvgRound: {  // SVE2 srhadd / urhadd; SVE: (a | b) - ((a ^ b) >> 1)
        const std::string a = s.args[0], b = s.args[1], p = all(t);
        if (w.cx.target.isa == "sve2") return w.assign(call("svrhadd_" + sfx(t) + "_x", {p, a, b}));
        const std::string half = call((isSigned(t) ? "svasr_n_" : "svlsr_n_") + sfx(t) + "_x", {p, call("sveor_" + sfx(t) + "_x", {p, a, b}), "1"});
        return w.assign(call("svsub_" + sfx(t) + "_x", {p, call("svorr_" + sfx(t) + "_x", {p, a, b}), half}));
      }
      case OpKind::AbsDiff:  // sabd / uabd / fabd at every width (unpacked lanes: each container's low element)
        return w.assign(call("svabd_" + sfx(t) + "_x", {all(t), s.args[0], s.args[1]}));
      case OpKind::Round: {  // frintm / frintp / frintz / frintn: the direction is in the opcode
        const char* fn = s.conv == ConvMode::floor ? "svrintm_" : s.conv == ConvMode::ceil ? "svrintp_" : s.conv == ConvMode::trunc ? "svrintz_" : "svrintn_";
        return w.assign(call(fn + sfx(t) + "_x", {all(t), s.args[0]}));
      }
      case OpKind::ShiftLeft:  // lsl; asr (signed) or lsr by an immediate. Unpacked narrow lanes
                               // shift at their own width, so each container's low element is right.
        return w.assign(call("svlsl_n_" + sfx(t) + "_x", {all(t), s.args[0], std::to_string(s.part)}));
      case OpKind::ShiftRight:
        return w.assign(call((isSigned(t) ? "svasr_n_" : "svlsr_n_") + sfx(t) + "_x", {all(t), s.args[0], std::to_string(s.part)}));
      case OpKind::Select: return w.assign(call("svsel_" + sfx(t), {s.args[0], s.args[1], s.args[2]}));
      case OpKind::DotAccumulate: return x.dotAccumulate();
      case OpKind::ReduceLanes: return x.reduceLanes();
      case OpKind::LoadHalves: break;  // an x86 load shape: no plan asks for it here
      case OpKind::Shuffle: return w.assign(x.shuffle(s.shuffle, s.type, s.args[0], s.args.size() > 1 ? s.args[1] : s.args[0]));
      case OpKind::NaNMask: return x.nanMask();
      case OpKind::LocateEqual: return x.locateEqual();
      case OpKind::Bitcast: return w.assign(reinterpret(s.args[0], w.typeOf(s.args[0]).elem, t));
      case OpKind::Convert: {
        const DType f = w.typeOf(s.args[0]).elem;
        if (bitsOf(f) > bitsOf(t)) w.cx.instructions.insert("narrowing to unpacked elements (clamped, then the low bits)");
        return w.assign(bitsOf(f) > bitsOf(t) ? narrowExpr(s, f) : convertExpr(s, f));
      }
      case OpKind::DotI8I8:  // sdot / udot on the quads' bytes (base SVE)
      case OpKind::DotU8U8: {
        const bool sdot = s.op == OpKind::DotI8I8;
        const DType b8 = sdot ? DType::i8 : DType::u8, acc = sdot ? DType::i32 : DType::u32;
        w.cx.instructions.insert(sdot ? "sdot i8 x i8 quad dot products" : "udot u8 x u8 quad dot products");
        const std::string dot = call(sdot ? "svdot_s32" : "svdot_u32", {reinterpret(s.args[0], DType::i32, acc), reinterpret(s.args[1], DType::u32, b8),
                                                                       reinterpret(s.args[2], DType::u32, b8)});
        return w.assign(reinterpret(dot, acc, DType::i32));
      }
      case OpKind::DotU8I8: {  // usdot on the quads' bytes (sve+i8mm): vpdpbusd's products
        if (!w.cx.target.has("i8mm")) throw std::logic_error("dot_u8i8 needs the i8mm feature (target sve+i8mm or sve2+i8mm)");
        w.cx.instructions.insert("usdot u8 x i8 quad dot products");
        return w.assign(call("svusdot_s32", {s.args[0], reinterpret(s.args[1], DType::u32, DType::u8), reinterpret(s.args[2], DType::u32, DType::i8)}));
      }
      case OpKind::DotBf16Odd: {  // bfdot (sve+bf16, sve2+bf16): the u32 pairs read as bf16
        if (!w.cx.target.has("bf16")) throw std::logic_error("dot_bf16_odd needs the bf16 feature (target sve+bf16 or sve2+bf16)");
        w.cx.instructions.insert("bfdot bf16 pair dot products");
        return w.assign(call("svbfdot_f32", {s.args[0], call("svreinterpret_bf16_u32", {s.args[1]}), call("svreinterpret_bf16_u32", {s.args[2]})}));
      }
      case OpKind::DotBf16:     // an x86 instruction: only avx512+bf16 plans use it
      case OpKind::DotI16I16:   // an x86 instruction (vpmaddwd): only AVX2 and AVX-512 plans use it
      case OpKind::ReduceRows:  // a fixed network over lanes-many vectors: fixed lane counts only
      case OpKind::ScaleB:  // AVX-512 only (builders ask for them there)
      case OpKind::GetExp:
      case OpKind::GetMant:
        throw std::logic_error("no " + std::string(nameOf(s.op)) + " on " + w.cx.target.spelling);
      case OpKind::LocateNaN:
      case OpKind::SetIndex:
      case OpKind::Fence:
      case OpKind::WhileLt:
      case OpKind::Compare:
      case OpKind::Not:
        break;
    }
    throw std::logic_error("no SVE lowering for vector " + std::string(ir::nameOf(s.op)) + " on " + ir::toString(s.type));
  }

  std::string archGuard() const override { return "defined(__aarch64__)"; }
  std::string preamble() const override { return "#include <arm_sve.h>"; }
  std::string cpuSupport() const override { return neonLowering().cpuSupport(); }  // the same AT_HWCAP reader
  std::string vscaleDeclaration() const override {
    return "const int64_t vscale = (int64_t)(svcntb() / 16);  // vector bits / 128, known at run time";
  }
  // `k * vscale` as a multiple of svcntb/h/w/d: GCC 12 computes `(svcntb() / 16) * 4` as cntb,
  // lsr, lsl, where `svcntw()` is one cntw (and `3 * svcntw()` one cntw with mul #3). Odd
  // multiples and products with other symbols keep `vscale`.
  std::string spellLaneCounts(const std::string& index, int unit) const override {
    static const std::regex multiple("\\b([0-9]+) \\* vscale\\b");
    std::string out;
    auto from = index.cbegin();
    for (std::sregex_iterator it(index.begin(), index.end(), multiple), end; it != end; ++it) {
      out.append(from, (*it)[0].first);
      out += lanesSpelling(std::stoll((*it)[1].str()), unit);
      from = (*it)[0].second;
    }
    return out.append(from, index.cend());
  }
  // k * vscale (k lanes per 128 bits) counted in the plan's lanes (`unit` per vscale) when they
  // divide it (4 f32 vectors: `4 * svcntw()`, not `svcntb()`), else in the widest that do.
  static std::string lanesSpelling(int64_t k, int unit) {
    using Count = std::pair<int, const char*>;
    const Count counts[] = {{16, "svcntb"}, {8, "svcnth"}, {4, "svcntw"}, {2, "svcntd"}};
    std::vector<Count> order;
    for (const Count& c : counts)
      if (c.first == unit) order.push_back(c);
    order.insert(order.end(), std::begin(counts), std::end(counts));
    for (const auto& [perVscale, count] : order)
      if (k % perVscale == 0) {
        const std::string lanes = std::string("(int64_t)") + count + "()";
        return k == perVscale ? lanes : std::to_string(k / perVscale) + " * " + lanes;
      }
    return std::to_string(k) + " * vscale";
  }
  std::string firstLaneActive(const std::string& p, VecType type) const override {
    return call("svptest_first", {all(type.elem), p});
  }
};

}  // namespace

const IsaLowering& sveLowering() {
  static const SveLowering module;
  return module;
}

}  // namespace simdgen::emit
