// SPDX-License-Identifier: Apache-2.0
#include "emit/x86_masked.h"

#include <stdexcept>

#include "emit/c_scalar.h"
#include "emit/x86_spelling.h"

namespace simdgen::emit::x86 {

using c::call;
using c::ctype;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

namespace {

// AVX2 predicates are vectors of the element width, so they govern full vectors only; a k-mask
// governs any width.
void requireWidth(const OpWriter& w, int bits) {
  if (bits != w.cx.target.vectorBits && !kmasks(w.cx))
    throw std::logic_error("x86 lowering of " + std::string(ir::nameOf(w.s.op)) + " on " + ir::toString(w.s.type) +
                           " needs full " + std::to_string(w.cx.target.vectorBits) + "-bit vectors");
}

// The active-lane count as a C expression in [0, lanes]: clamped unless the plan promised it.
std::string clamped(const ir::Index& count, bool partial, int lanes, LowerContext& cx) {
  if (partial) return count.str();
  cx.helpers.insert("clamp_lanes");
  return "simdgen_clamp_lanes(" + count.str() + ", " + std::to_string(lanes) + ")";
}

// The byte count of a prefix predicate's active lanes of type t: "(count) * bytes".
std::string prefixBytes(const LaneRange& range, int lanes, DType t, LowerContext& cx) {
  return "(" + clamped(range.count, range.partial, lanes, cx) + ") * " + std::to_string(bytesOf(t));
}

// The predicate whilelt(lo, hi) of type t as an expression.
std::string whileLtExpr(const Stmt& def, LowerContext& cx) {
  const DType t = def.type.elem;
  const int lanes = def.type.lanes;
  const std::string n = activeCount(def).str();
  if (kmasks(cx)) {
    // A promised tail (0 < n < lanes) is a plain shift; otherwise the helper clamps.
    if (def.partialOnly)  // bzhi: the low n bits of all-ones, one instruction (BMI2 comes with the target)
      return lanes == 64 ? "(__mmask64)_bzhi_u64(~0ull, (unsigned)(" + n + "))"
                         : "(" + maskType(lanes) + ")_bzhi_u32(~0u, (unsigned)(" + n + "))";
    cx.helpers.insert("lanes_below");
    return "(" + maskType(lanes) + ")simdgen_lanes_below(" + n + ", " + std::to_string(lanes) + ")";
  }
  return call("_mm256_cmpgt_epi" + std::to_string(bitsOf(t)),
              {avx2Splat(bitsOf(t), clamped(activeCount(def), def.partialOnly, lanes, cx)), iota(t, lanes)});
}

std::string notExpr(const std::string& a, int lanes, LowerContext& cx) {
  if (kmasks(cx)) return "(" + maskType(lanes) + ")~" + a;
  return call("_mm256_xor_si256", {a, "_mm256_set1_epi32(-1)"});
}

}  // namespace

bool inlinesPredicate(const Stmt& def, const LowerContext& cx) { return isLaneRangePredicate(def, cx); }

std::string predicateDeclaration(const Stmt& def, LowerContext& cx) {
  std::string type = maskType(def.type.lanes);
  if (!kmasks(cx)) {  // AVX2 predicates govern full vectors only; a fractional one is used by its lane range
    if (cx.target.vectorBits != 256 || def.type.bits() != 256) return "";
    type = "__m256i";
  }
  return "const " + type + " " + def.dst + " = " + predicate(def.dst, cx) + ";";
}

std::string predicate(const std::string& p, LowerContext& cx) {
  static const PredicateSpelling spelling{
      whileLtExpr, [](const Stmt& def, const std::string& inner, LowerContext& c) { return notExpr(inner, def.type.lanes, c); }};
  return predicateExpr(p, cx, spelling);
}

std::string compareExpr(ir::Cmp cmp, DType t, int bits, const std::string& a, const std::string& b, LowerContext& cx) {
  const std::string p = pfx(bits);
  if (isFloat(t)) {
    static const char* preds[] = {"_CMP_LT_OQ", "_CMP_LE_OQ", "_CMP_GT_OQ", "_CMP_GE_OQ", "_CMP_EQ_OQ", "_CMP_NEQ_UQ"};
    const std::string pr = preds[static_cast<int>(cmp)];
    if (kmasks(cx)) return call(p + "cmp_" + fsfx(t) + "_mask", {a, b, pr});
    return castTo(call(p + "cmp_" + fsfx(t), {a, b, pr}), t, bits, "si");
  }
  const std::string w = std::to_string(bitsOf(t));
  if (kmasks(cx)) {
    static const char* preds[] = {"_MM_CMPINT_LT", "_MM_CMPINT_LE", "_MM_CMPINT_NLE", "_MM_CMPINT_NLT", "_MM_CMPINT_EQ", "_MM_CMPINT_NE"};
    return call(p + "cmp_" + (isSigned(t) ? "epi" : "epu") + w + "_mask", {a, b, preds[static_cast<int>(cmp)]});
  }
  // AVX2 has signed > and == only: unsigned lanes are biased by the sign bit, the rest negated.
  // (At 128 bits and below: a fractional vector in an XMM register, the SSE4.2 forms.)
  std::string x = a, y = b;
  const std::string vxor = p + "xor_" + si(bits);
  if (!isSigned(t)) {
    const std::string bias = splatExpr(t, bits, bitsOf(t) == 64 ? "0x8000000000000000ull" : "1ull << " + std::to_string(bitsOf(t) - 1));
    x = call(vxor, {a, bias});
    y = call(vxor, {b, bias});
  }
  const std::string ones = p + "set1_epi32(-1)";
  auto gt = [&](const std::string& l, const std::string& r) { return call(p + "cmpgt_epi" + w, {l, r}); };
  auto negate = [&](const std::string& v) { return call(vxor, {v, ones}); };
  switch (cmp) {
    case ir::Cmp::gt: return gt(x, y);
    case ir::Cmp::lt: return gt(y, x);
    case ir::Cmp::le: return negate(gt(x, y));
    case ir::Cmp::ge: return negate(gt(y, x));
    case ir::Cmp::eq: return call(p + "cmpeq_epi" + w, {a, b});
    case ir::Cmp::ne: return negate(call(p + "cmpeq_epi" + w, {a, b}));
  }
  return "";
}

void whileLt(OpWriter& w) {
  requireWidth(w, w.s.type.bits());
  w.assign(whileLtExpr(w.s, w.cx));
}

void predicateLogic(OpWriter& w) {
  const Stmt& s = w.s;
  const std::string a = predicate(s.args[0], w.cx);
  if (s.op == OpKind::Not) return w.assign(notExpr(a, s.type.lanes, w.cx));
  const std::string b = predicate(s.args[1], w.cx);
  const std::string op = s.rop == ReduceOp::bit_and ? "and" : s.rop == ReduceOp::bit_or ? "or" : "xor";
  if (kmasks(w.cx)) {
    const char* sym = op == "and" ? " & " : op == "or" ? " | " : " ^ ";
    return w.assign("(" + maskType(s.type.lanes) + ")(" + a + sym + b + ")");
  }
  w.assign(call("_mm256_" + op + "_si256", {a, b}));
}

void maskedLoad(OpWriter& w) {
  const Stmt& s = w.s;
  const DType t = s.type.elem;
  const int bits = s.type.bits(), lanes = s.type.lanes;
  const std::string fill = splatExpr(t, bits, s.literal.empty() ? "0" : s.literal);
  const auto range = laneRange(s.pred, w.cx);
  if (s.inBounds) {
    // Every lane may be read: a plain load with the fill blended in beats a masked load on Zen 4
    // (and AVX2 has none for bytes). A suffix on AVX2 takes its blend mask from a table.
    w.cx.instructions.insert("tails: the row's last whole vector, blended with the identity");
    const std::string whole = loadExpr(t, bits, w.in(s.index));
    if (kmasks(w.cx)) return w.assign(call(pfx(bits) + "mask_blend_" + domain(t), {predicate(s.pred, w.cx), fill, whole}));
    if (!range || !range->last) return w.assign(blend(t, bits, predicate(s.pred, w.cx), fill, whole, w.cx));
    w.cx.helpers.insert("tail_keep");
    const std::string keep = s.dst + "_keep";
    w.out.push_back("const __m256i " + keep + " = _mm256_loadu_si256((const __m256i*)(simdgen_tail_keep + " +
                    prefixBytes(*range, lanes, t, w.cx) + "));");
    return w.assign(blend(t, bits, keep, fill, whole, w.cx));
  }
  if (kmasks(w.cx)) {
    w.cx.instructions.insert("masked loads (AVX-512 k-registers) for the tail");
    return w.assign(call(pfx(bits) + "mask_loadu_" + domain(t), {fill, predicate(s.pred, w.cx), w.in(s.index)}));
  }
  if (bits < w.cx.target.vectorBits && range && !range->last) {
    // A fractional vector's prefix (an XMM register; the predicate is over the widest type's lanes).
    w.cx.instructions.insert("partial fractional vectors loaded and stored piecewise (8/4/2/1-byte accesses)");
    w.cx.helpers.insert("load_prefix16_avx2");
    const std::string loaded = castTo("simdgen_load_prefix16((const uint8_t*)(" + w.in(s.index) + "), " +
                                          prefixBytes(*range, lanes, t, w.cx) + ")",
                                      DType::i32, 128, isFloat(t) ? fsfx(t) : "si");
    if (s.literal.empty() || c::isZeroLiteral(s.literal)) return w.assign(loaded);
    throw std::logic_error("x86 lowering: a fractional masked load with a fill");
  }
  requireWidth(w, bits);
  if (bitsOf(t) >= 32) {
    w.cx.instructions.insert("vpmaskmov/vmaskmov masked loads for 32/64-bit tails");
    std::string p = predicate(s.pred, w.cx);
    const std::string ptr = avx2MaskPtr(t) + "(" + w.in(s.index) + ")";
    // vmaskmov zeroes the lanes it does not load: a zero fill needs no blend.
    if (s.literal.empty() || c::isZeroLiteral(s.literal)) return w.assign(call("_mm256_maskload_" + domain(t), {ptr, p}));
    if (p != s.pred) {  // an expression: name it once for the load and the blend
      const std::string active = w.cx.local(s, "_active");
      w.out.push_back("const __m256i " + active + " = " + p + ";");
      p = active;
    }
    return w.assign(blend(t, bits, p, fill, call("_mm256_maskload_" + domain(t), {ptr, p}), w.cx));
  }
  // AVX2 has no 8/16-bit masked load.
  const std::string stage = w.cx.local(s, "_stage");
  if (range && !range->last) {  // a prefix: loaded piecewise into a register, the fill blended in
    w.cx.instructions.insert("8/16-bit partial vectors loaded and stored piecewise (8/4/2/1-byte accesses: no AVX2 byte masked load)");
    w.cx.helpers.insert("load_prefix16_avx2");
    w.cx.helpers.insert("load_prefix_avx2");
    const std::string loaded = "simdgen_load_prefix32(" + w.in(s.index) + ", " + prefixBytes(*range, lanes, t, w.cx) + ")";
    if (s.literal.empty() || c::isZeroLiteral(s.literal)) return w.assign(loaded);
    return w.assign(blend(t, bits, predicate(s.pred, w.cx), fill, loaded, w.cx));
  }
  w.cx.instructions.insert("8/16-bit predicated loads lane by lane (no AVX2 byte masked load)");
  const std::string active = w.cx.local(s, "_active");
  w.out.push_back("alignas(32) " + ctype(t) + " " + stage + "[" + std::to_string(lanes) + "];");
  w.out.push_back("alignas(32) " + ctype(t) + " " + active + "[" + std::to_string(lanes) + "];");
  w.out.push_back("_mm256_store_si256((__m256i*)" + stage + ", " + fill + ");");
  w.out.push_back("_mm256_store_si256((__m256i*)" + active + ", " + predicate(s.pred, w.cx) + ");");
  w.out.push_back("for (int l = 0; l < " + std::to_string(lanes) + "; ++l) if (" + active + "[l]) " + stage + "[l] = (" +
                  w.in(s.index) + ")[l];");
  w.assign("_mm256_load_si256((const __m256i*)" + stage + ")");
}

void maskedStore(OpWriter& w) {
  const Stmt& s = w.s;
  const VecType v = w.typeOf(s.args[0]);
  const DType t = v.elem;
  const int bits = v.bits();
  const std::string val = s.args[0], ptr = w.outp(s.index);
  if (kmasks(w.cx)) return w.out.push_back(call(pfx(bits) + "mask_storeu_" + domain(t), {ptr, predicate(s.pred, w.cx), val}) + ";");
  if (const auto range = laneRange(s.pred, w.cx); bits < w.cx.target.vectorBits && range && !range->last) {
    w.cx.helpers.insert("store_prefix16_avx2");
    return w.out.push_back("simdgen_store_prefix16((uint8_t*)(" + ptr + "), " + castTo(val, t, 128, "si") + ", " +
                           prefixBytes(*range, v.lanes, t, w.cx) + ");");
  }
  requireWidth(w, bits);
  if (const auto range = laneRange(s.pred, w.cx); bitsOf(t) >= 32 && range && !range->last) {
    // A prefix of 32/64-bit lanes: 16/8/4-byte stores by the bits of the byte count. vmaskmov's
    // store is microcoded on AMD Zen 1-3 (8-9 ns a call on Zen 3 at n < 64 against 4-5 ns
    // piecewise; XNNPACK's AVX2 kernels store their tails this way too). Loads stay masked.
    w.cx.instructions.insert("32/64-bit partial vectors stored piecewise (16/8/4-byte stores)");
    w.cx.helpers.insert("store_words_avx2");
    return w.out.push_back("simdgen_store_words32(" + ptr + ", " + castTo(val, t, 256, "si") + ", " +
                           prefixBytes(*range, v.lanes, t, w.cx) + ");");
  }
  if (bitsOf(t) >= 32) {
    std::string cast = avx2MaskPtr(t);
    cast.erase(1, 6);  // drop "const "
    return w.out.push_back(call("_mm256_maskstore_" + domain(t), {cast + "(" + ptr + ")", predicate(s.pred, w.cx), val}) + ";");
  }
  if (const auto range = laneRange(s.pred, w.cx); range && !range->last) {
    w.cx.helpers.insert("store_prefix16_avx2");
    w.cx.helpers.insert("store_prefix_avx2");
    return w.out.push_back("simdgen_store_prefix32(" + ptr + ", " + val + ", " + prefixBytes(*range, v.lanes, t, w.cx) + ");");
  }
  const std::string stage = val + "_stage";
  w.out.push_back("{");
  w.out.push_back("alignas(32) " + ctype(t) + " " + stage + "[" + std::to_string(v.lanes) + "];");
  w.out.push_back("_mm256_store_si256((__m256i*)" + stage + ", " + val + ");");
  w.cx.instructions.insert("8/16-bit predicated stores lane by lane (no AVX2 byte masked store)");
  const std::string active = val + "_active";
  w.out.push_back("alignas(32) " + ctype(t) + " " + active + "[" + std::to_string(v.lanes) + "];");
  w.out.push_back("_mm256_store_si256((__m256i*)" + active + ", " + predicate(s.pred, w.cx) + ");");
  w.out.push_back("for (int l = 0; l < " + std::to_string(v.lanes) + "; ++l) if (" + active + "[l]) (" + ptr + ")[l] = " + stage + "[l];");
  w.out.push_back("}");
}

}  // namespace simdgen::emit::x86
