// SPDX-License-Identifier: Apache-2.0
// The x86 module: SSE/AVX2/AVX-512 intrinsics for vector values, AVX-512 k-masks or AVX2 all-ones
// lanes for predicates; one-lane values go to the scalar module.
#include "emit/x86_lowering.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "emit/c_scalar.h"
#include "emit/scalar_lowering.h"
#include "emit/x86_masked.h"
#include "emit/x86_spelling.h"

namespace simdgen::emit {

using c::call;
using c::carriedUnsigned;
using c::ctype;
using c::isZeroLiteral;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;
using namespace x86;

namespace {

// ---- naming ---------------------------------------------------------------------------------

// ---- arithmetic ----------------------------------------------------------------------------

// AVX2's a > b on 64-bit lanes, all ones where it holds: vpcmpgtq, on operands with their sign bits
// flipped when unsigned (AVX2 has no unsigned compare).
std::string greater64(DType t, int bits, const std::string& a, const std::string& b) {
  const std::string p = pfx(bits);
  if (isSigned(t)) return call(p + "cmpgt_epi64", {a, b});
  const std::string bias = call(p + "set1_epi64x", {"(long long)0x8000000000000000ull"});
  return call(p + "cmpgt_epi64", {call(p + "xor_" + si(bits), {a, bias}), call(p + "xor_" + si(bits), {b, bias})});
}

std::string binaryExpr(ReduceOp op, DType t, int bits, const std::string& a, const std::string& b,
                       LowerContext& cx) {
  const std::string p = pfx(bits);
  const bool avx512 = cx.target.isa == "avx512";
  if (isFloat(t)) {
    const char* name = op == ReduceOp::add ? "add_" : op == ReduceOp::mul ? "mul_" : op == ReduceOp::min ? "min_" : "max_";
    return call(p + name + fsfx(t), {a, b});
  }
  const int n = bitsOf(t);
  switch (op) {
    case ReduceOp::add: return call(p + "add_" + epi(t), {a, b});
    case ReduceOp::bit_and: return call(p + "and_" + si(bits), {a, b});
    case ReduceOp::bit_or: return call(p + "or_" + si(bits), {a, b});
    case ReduceOp::bit_xor: return call(p + "xor_" + si(bits), {a, b});
    case ReduceOp::mul:
      if (n == 16 || n == 32) return call(p + "mullo_" + epi(t), {a, b});
      if (n == 64 && avx512) return call(p + "mullo_epi64", {a, b});
      if (n == 8) {
        cx.instructions.insert("int8 multiply emulated with two vpmullw (no 8-bit multiply exists)");
        return call(p + "or_" + si(bits),
                    {call(p + "and_" + si(bits), {call(p + "mullo_epi16", {a, b}), call(p + "set1_epi16", {"0x00FF"})}),
                     call(p + "slli_epi16",
                          {call(p + "mullo_epi16", {call(p + "srli_epi16", {a, "8"}), call(p + "srli_epi16", {b, "8"})}), "8"})});
      }
      cx.instructions.insert("int64 multiply emulated with three vpmuludq (AVX2 has no vpmullq)");
      return call(p + "add_epi64",
                  {call(p + "mul_epu32", {a, b}),
                   call(p + "slli_epi64",
                        {call(p + "add_epi64", {call(p + "mul_epu32", {a, call(p + "srli_epi64", {b, "32"})}),
                                                call(p + "mul_epu32", {call(p + "srli_epi64", {a, "32"}), b})}),
                         "32"})});
    case ReduceOp::min:
    case ReduceOp::max: {
      const std::string kind = op == ReduceOp::min ? "min_" : "max_";
      if (n < 64 || avx512) return call(p + kind + (isSigned(t) ? "epi" : "epu") + std::to_string(n), {a, b});
      // AVX2 has no 64-bit min/max: compare (biased for unsigned) and blend.
      cx.instructions.insert("64-bit min/max emulated with vpcmpgtq + vpblendvb (AVX2 has none)");
      const std::string gt = greater64(t, bits, a, b);
      return op == ReduceOp::min ? call(p + "blendv_epi8", {a, b, gt}) : call(p + "blendv_epi8", {b, a, gt});
    }
  }
  return "";
}

// a - b lane-wise: integers wrap.
std::string subExpr(DType t, int bits, const std::string& a, const std::string& b) {
  return call(pfx(bits) + "sub_" + (isFloat(t) ? fsfx(t) : epi(t)), {a, b});
}

// -x lane-wise: floats flip the sign bit (zeros and NaN too, like C's unary minus); integers are
// 0 - x, wrapping.
std::string negExpr(DType t, int bits, const std::string& x) {
  const std::string p = pfx(bits);
  if (isFloat(t)) return call(p + "xor_" + fsfx(t), {x, call(p + "set1_" + fsfx(t), {t == DType::f32 ? "-0.0f" : "-0.0"})});
  return call(p + "sub_" + epi(t), {p + "setzero_" + si(bits) + "()", x});
}

// |x| lane-wise: floats clear the sign bit; signed integers wrap (vpabs* gives |MIN| = MIN).
std::string absExpr(DType t, int bits, const std::string& x, LowerContext& cx) {
  const std::string p = pfx(bits);
  if (isFloat(t)) return call(p + "andnot_" + fsfx(t), {call(p + "set1_" + fsfx(t), {t == DType::f32 ? "-0.0f" : "-0.0"}), x});
  if (!isSigned(t)) return x;
  if (bitsOf(t) < 64 || cx.target.isa == "avx512") return call(p + "abs_" + epi(t), {x});
  // AVX2 has no vpabsq: (x ^ m) - m with m = all ones where x < 0.
  cx.instructions.insert("64-bit abs emulated with vpcmpgtq, xor and sub (AVX2 has no vpabsq)");
  const std::string m = call(p + "cmpgt_epi64", {p + "setzero_" + si(bits) + "()", x});
  return call(p + "sub_epi64", {call(p + "xor_" + si(bits), {x, m}), m});
}

// Set bits per lane: each nibble's count looked up in a 16-byte table by vpshufb, the two added per
// byte, the byte counts summed to wider lanes by vpmaddubsw (16), then vpmaddwd (32), or vpsadbw
// (64). Every AVX2 and AVX-512BW target has these; avx512+vpopcnt (VPOPCNTDQ, BITALG) is one instruction.
std::string popcountExpr(DType t, int bits, const std::string& x, LowerContext& cx) {
  // Fractional vectors (64 bits and below) live in xmm registers: one table per register width.
  const std::string p = pfx(bits), b = std::to_string(std::max(bits, 128)), reg = regType(DType::u8, bits);
  if (cx.target.has("vpopcnt")) {
    cx.instructions.insert("vpopcntb/w/d/q (BITALG, VPOPCNTDQ)");
    return call(p + "popcnt_epi" + std::to_string(bitsOf(t)), {x});
  }
  cx.instructions.insert("popcount by nibble table (vpshufb), bytes summed by vpmaddubsw/vpmaddwd/vpsadbw");
  const std::string quad = "0x04030302, 0x03020201, 0x03020201, 0x02010100";  // counts of 0..15, 4 per int, high first
  const std::string table = "popcount_table" + b, low = "low_nibbles" + b;
  cx.hoist("const " + reg + " " + table + " = " +
           (bits == 512 ? "_mm512_set4_epi32(" + quad + ")" : bits == 256 ? "_mm256_set_epi32(" + quad + ", " + quad + ")" : "_mm_set_epi32(" + quad + ")") + ";");
  cx.hoist("const " + reg + " " + low + " = " + call(p + "set1_epi8", {"0x0F"}) + ";");
  const std::string lo = call(p + "and_" + si(bits), {x, low}), hi = call(p + "and_" + si(bits), {call(p + "srli_epi16", {x, "4"}), low});
  const std::string bytes = call(p + "add_epi8", {call(p + "shuffle_epi8", {table, lo}), call(p + "shuffle_epi8", {table, hi})});
  if (bitsOf(t) == 8) return bytes;
  if (bitsOf(t) == 64) return call(p + "sad_epu8", {bytes, p + "setzero_" + si(bits) + "()"});
  cx.hoist("const " + reg + " ones_bytes" + b + " = " + call(p + "set1_epi8", {"1"}) + ";");
  const std::string pairs = call(p + "maddubs_epi16", {bytes, "ones_bytes" + b});  // counts <= 8: no saturation
  if (bitsOf(t) == 16) return pairs;
  cx.hoist("const " + reg + " ones_words" + b + " = " + call(p + "set1_epi16", {"1"}) + ";");
  return call(p + "madd_epi16", {pairs, "ones_words" + b});
}

// A float rounded to an integral value: the direction is in the immediate (not MXCSR's), exceptions
// suppressed; vroundps/pd up to 256 bits, vrndscaleps/pd (scale 0) at 512.
std::string roundExpr(DType t, int bits, const std::string& x, ConvMode mode) {
  const std::string dir = mode == ConvMode::floor  ? "_MM_FROUND_TO_NEG_INF"
                          : mode == ConvMode::ceil  ? "_MM_FROUND_TO_POS_INF"
                          : mode == ConvMode::trunc ? "_MM_FROUND_TO_ZERO"
                                                    : "_MM_FROUND_TO_NEAREST_INT";
  return call(pfx(bits) + (bits == 512 ? "roundscale_" : "round_") + fsfx(t), {x, dir + " | _MM_FROUND_NO_EXC"});
}

// x << count or x >> count lane-wise (0 < count < bits; >> arithmetic for signed types).
// 16/32/64-bit lanes have immediate shifts, except AVX2's 64-bit arithmetic one; bytes shift as
// 16-bit lanes with the bits that crossed into a neighbouring byte masked off.
std::string shiftExpr(bool left, DType t, int bits, const std::string& x, int count, LowerContext& cx) {
  const std::string p = pfx(bits), c = std::to_string(count), n = std::to_string(bitsOf(t));
  auto bytes = [&](int mask) { return call(p + "set1_epi8", {std::to_string(int(int8_t(uint8_t(mask))))}); };
  if (bitsOf(t) == 8 && cx.target.has("gfni")) {
    // One affine transform per byte: output bit i = parity(matrix byte 7 - i & x), so row 7 - i
    // selects the input bit that lands in bit i (none: zero; an arithmetic shift repeats bit 7).
    uint64_t matrix = 0;
    for (int i = 0; i < 8; ++i) {
      const int from = left ? i - count : std::min(i + count, isSigned(t) ? 7 : 8);
      if (from >= 0 && from < 8) matrix |= uint64_t{1} << (8 * (7 - i) + from);
    }
    cx.instructions.insert("8-bit shifts as vgf2p8affineqb with a bit-matrix (GFNI)");
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%016llxull", static_cast<unsigned long long>(matrix));
    const std::string splat = bits == 512 ? p + "set1_epi64" : p + "set1_epi64x";
    return call(p + "gf2p8affine_epi64_epi8", {x, call(splat, {std::string("(long long)") + hex}), "0"});
  }
  if (bitsOf(t) == 8) {
    cx.instructions.insert("8-bit shifts emulated with 16-bit shifts and a byte mask (x86 has no byte shifts)");
    if (left) return call(p + "and_" + si(bits), {call(p + "slli_epi16", {x, c}), bytes(0xFF << count)});
    const std::string logical = call(p + "and_" + si(bits), {call(p + "srli_epi16", {x, c}), bytes(0xFF >> count)});
    if (!isSigned(t)) return logical;
    // The (8 - count)-bit logical result sign-extended: (v ^ m) - m with m its sign bit.
    const std::string m = bytes(0x80 >> count);
    return call(p + "sub_epi8", {call(p + "xor_" + si(bits), {logical, m}), m});
  }
  if (left) return call(p + "slli_epi" + n, {x, c});
  if (!isSigned(t)) return call(p + "srli_epi" + n, {x, c});
  if (bitsOf(t) < 64 || cx.target.isa == "avx512") return call(p + "srai_epi" + n, {x, c});
  // AVX2 has no vpsraq: the logical shift with the sign's copies shifted into the top bits.
  cx.instructions.insert("64-bit arithmetic shift emulated with vpcmpgtq and two logical shifts (AVX2 has no vpsraq)");
  const std::string sign = call(p + "cmpgt_epi64", {p + "setzero_" + si(bits) + "()", x});
  return call(p + "or_" + si(bits), {call(p + "srli_epi64", {x, c}), call(p + "slli_epi64", {sign, std::to_string(64 - count)})});
}

// ---- op lowerings --------------------------------------------------------------------------

// a + b / a - b clamped to t's range, into `out` as statements ending in `dst = ...;`. 8- and
// 16-bit lanes have the instructions (vpaddsb, vpsubusw, ...). Wider unsigned lanes: a + min(b, ~a)
// and max(a, b) - b (AVX2's 64-bit lanes, which have no unsigned min/max, by an unsigned compare:
// the sign bits flipped); wider signed lanes wrap, and where the result's sign is wrong for the
// operands' (for sums (a ^ s) & (b ^ s) < 0) take a's bound: (a < 0 ? all ones : 0) ^ MAX.
void addSubSat(bool add, DType t, int bits, const std::string& a, const std::string& b, const std::string& dst,
               const std::string& decl, std::vector<std::string>& out, LowerContext& cx) {
  const std::string p = pfx(bits), w = std::to_string(bitsOf(t)), e = epi(t), v = si(bits), reg = regType(t, bits);
  auto assign = [&](const std::string& expr) { out.push_back(decl + " = " + expr + ";"); };
  if (bitsOf(t) <= 16) return assign(call(p + (add ? "adds_" : "subs_") + (isSigned(t) ? "epi" : "epu") + w, {a, b}));
  const bool k = kmasks(cx), avx2 = !k;
  const std::string zero = p + "setzero_" + v + "()", s = dst + "_wrapped";
  if (!isSigned(t) && (bitsOf(t) == 32 || k)) {
    if (add) return assign(call(p + "add_" + e, {a, call(p + "min_epu" + w, {b, call(p + "xor_" + v, {a, splatExpr(t, bits, "-1")})})}));
    return assign(call(p + "sub_" + e, {call(p + "max_epu" + w, {a, b}), b}));
  }
  out.push_back("const " + reg + " " + s + " = " + call(p + (add ? "add_" : "sub_") + e, {a, b}) + ";");
  if (!isSigned(t)) {
    cx.instructions.insert("unsigned 64-bit saturation by vpcmpgtq on sign-flipped operands (AVX2 has no vpminuq)");
    const std::string flip = splatExpr(t, bits, "INT64_MIN");
    auto flipped = [&](const std::string& x) { return call(p + "xor_" + v, {x, flip}); };
    // add: wrapped below a means a carry out (saturate to all ones); sub: b above a (to zero).
    if (add) return assign(call(p + "or_" + v, {s, call(p + "cmpgt_epi64", {flipped(a), flipped(s)})}));
    return assign(call(p + "andnot_" + v, {call(p + "cmpgt_epi64", {flipped(b), flipped(a)}), s}));
  }
  const std::string bad = dst + "_overflow", bound = dst + "_bound";  // overflow: in the sign bit
  const std::string x1 = call(p + "xor_" + v, {a, add ? s : b}), x2 = call(p + "xor_" + v, {add ? b : a, s});
  out.push_back("const " + reg + " " + bad + " = " + call(p + "and_" + v, {x1, x2}) + ";");
  const std::string negative = avx2 && bitsOf(t) == 64 ? call(p + "cmpgt_epi64", {zero, a}) : call(p + "srai_" + e, {a, w == "32" ? "31" : "63"});
  out.push_back("const " + reg + " " + bound + " = " + call(p + "xor_" + v, {negative, splatExpr(t, bits, bitsOf(t) == 32 ? "INT32_MAX" : "INT64_MAX")}) + ";");
  if (k) return assign(call(p + "mask_blend_" + e, {call(p + "cmplt_" + e + "_mask", {bad, zero}), s, bound}));
  const std::string lanes = bitsOf(t) == 64 ? call(p + "cmpgt_epi64", {zero, bad}) : call(p + "srai_epi32", {bad, "31"});
  assign(call(p + "blendv_epi8", {s, bound, lanes}));
}

// (a + b + 1) >> 1 without overflow: vpavgb/vpavgw for unsigned bytes and words, signed ones
// through them with the sign bits flipped (which adds 2^(bits-1) to both and so to the mean);
// wider lanes (a | b) - ((a ^ b) >> 1), the shift arithmetic for signed lanes.
std::string avgRoundExpr(DType t, int bits, const std::string& a, const std::string& b, LowerContext& cx) {
  const std::string p = pfx(bits), v = si(bits), w = std::to_string(bitsOf(t));
  if (bitsOf(t) <= 16) {
    const std::string avg = p + "avg_epu" + w;
    if (!isSigned(t)) return call(avg, {a, b});
    const std::string flip = splatExpr(t, bits, bitsOf(t) == 8 ? "-128" : "-32768");
    auto flipped = [&](const std::string& x) { return call(p + "xor_" + v, {x, flip}); };
    return flipped(call(avg, {flipped(a), flipped(b)}));
  }
  return call(p + "sub_" + epi(t), {call(p + "or_" + v, {a, b}), shiftExpr(false, t, bits, call(p + "xor_" + v, {a, b}), 1, cx)});
}

// |a - b| lane-wise. Integers: max(a, b) - min(a, b), exact modulo 2^bits (three instructions
// where a compare, two subtractions and a blend would be four); AVX2's 64-bit lanes, which have
// no min/max, by one compare (biased for unsigned) and a blend of the two differences. Floats:
// the difference with its sign cleared.
std::string absDiffExpr(DType t, int bits, const std::string& a, const std::string& b, LowerContext& cx) {
  if (isFloat(t)) return absExpr(t, bits, subExpr(t, bits, a, b), cx);
  if (bitsOf(t) < 64 || cx.target.isa == "avx512")
    return subExpr(t, bits, binaryExpr(ReduceOp::max, t, bits, a, b, cx), binaryExpr(ReduceOp::min, t, bits, a, b, cx));
  cx.instructions.insert("64-bit absolute difference by vpcmpgtq + vpblendvb (AVX2 has no 64-bit min/max)");
  return call(pfx(bits) + "blendv_epi8", {subExpr(t, bits, b, a), subExpr(t, bits, a, b), greater64(t, bits, a, b)});
}

std::string shuffleCall(const ir::Shuffle& sh, VecType type, const std::string& a, const std::string& b);

struct X86Writer {
  OpWriter& w;
  const Stmt& s = w.s;
  LowerContext& cx = w.cx;
  std::vector<std::string>& out = w.out;

  const ir::Tensor& source() const { return w.source(); }
  std::string src() const { return w.src(); }
  std::string in(const ir::Index& idx) const { return w.in(idx); }
  std::string outp(const ir::Index& idx) const { return w.outp(idx); }
  std::string decl() const { return w.decl(); }
  void assign(const std::string& expr) { w.assign(expr); }
  VecType typeOf(const std::string& v) const { return w.typeOf(v); }
  std::string cppType(VecType t) const { return w.isa.typeName(t, cx); }
  // A value of the real C type, cast to the carrier when the carrier differs.
  std::string carry(const std::string& v) const {
    return carriedUnsigned(s.type.elem, cx.plan.rop) ? "(" + c::carrier(s.type.elem, cx.plan.rop) + ")" + v : v;
  }

  void splat() {
    assign(splatExpr(s.type.elem, s.type.bits(), s.args.empty() ? s.literal : s.args[0]));
  }

  void load() {
    assign(loadExpr(s.type.elem, s.type.bits(), in(s.index)));
  }

  // A half-width load and an insert of the other half: compilers fold the second load into
  // vinsertf32x8 / vinsertf128 with a memory operand.
  void loadHalves() {
    const DType t = s.type.elem;
    const int bits = s.type.bits(), half = bits / 2;
    const std::string lo = loadExpr(t, half, in(s.index)), hi = loadExpr(t, half, in(s.index) + " + " + s.stride.str());
    const std::string f = isFloat(t) ? fsfx(t) : "si";
    std::string widened, insert;
    if (bits == 512) {
      widened = call(f == "si" ? "_mm512_castsi256_si512" : "_mm512_cast" + f + "256_" + f + "512", {lo});
      insert = t == DType::f32 ? "_mm512_insertf32x8" : t == DType::f64 ? "_mm512_insertf64x4" : "_mm512_inserti64x4";
    } else if (bits == 256) {
      widened = call(f == "si" ? "_mm256_castsi128_si256" : "_mm256_cast" + f + "128_" + f + "256", {lo});
      insert = isFloat(t) ? "_mm256_insertf128_" + f : "_mm256_inserti128_si256";
    } else {
      throw std::logic_error("load_halves needs a 256- or 512-bit vector on x86, not " + ir::toString(s.type));
    }
    assign(call(insert, {widened, hi, "1"}));
  }

  void nanMask() {
    const VecType src = typeOf(s.args[0]);
    const std::string x = s.args[0];
    const std::string f = fsfx(src.elem);
    if (cx.target.maskRegisters)
      return assign(call(std::string("_mm512_movm_epi") + (f == "ps" ? "32" : "64"),
                         {call("_mm512_cmp_" + f + "_mask", {x, x, "_CMP_UNORD_Q"})}));
    assign(call("_mm256_cast" + f + "_si256", {call("_mm256_cmp_" + f, {x, x, "_CMP_UNORD_Q"})}));
  }

  // Bits of a lane-equality mask, low bit = lane 0, and how many bits each lane owns.
  std::pair<std::string, int> equalMask(DType t, const std::string& v, const std::string& want) {
    const bool f = isFloat(t);
    if (cx.target.maskRegisters) {
      const std::string cmp = f ? call("_mm512_cmp_" + fsfx(t) + "_mask", {v, want, "_CMP_EQ_OQ"})
                                : call("_mm512_cmpeq_" + epi(t) + "_mask", {v, want});
      return {"(uint64_t)" + cmp, 1};
    }
    if (f) return {"(uint64_t)" + call("_mm256_movemask_" + fsfx(t), {call("_mm256_cmp_" + fsfx(t), {v, want, "_CMP_EQ_OQ"})}), 1};
    const std::string eq = call("_mm256_cmpeq_" + epi(t), {v, want});
    if (bitsOf(t) == 32) return {"(uint64_t)" + call("_mm256_movemask_ps", {call("_mm256_castsi256_ps", {eq})}), 1};
    if (bitsOf(t) == 64) return {"(uint64_t)" + call("_mm256_movemask_pd", {call("_mm256_castsi256_pd", {eq})}), 1};
    return {"(uint64_t)(uint32_t)" + call("_mm256_movemask_epi8", {eq}), bitsOf(t) / 8};
  }

  // The first (or last) column in [lo, hi) equal to a scalar: vector compares, then the lowest (or
  // highest) set mask bit; a scalar loop covers the columns that do not fill a vector.
  void locateEqual() {
    const DType t = source().dtype;
    const std::string want = s.args[0], lo = s.lo.str(), hi = s.hi.str(), c = s.dst + "_c";
    const bool last = s.part == 1;
    const int lanes = cx.target.lanes(t);
    cx.instructions.insert(std::string("block rescan: compare-to-mask and ") + (last ? "lzcnt" : "tzcnt") + " for the lane");
    const std::string L = std::to_string(lanes), wantV = s.dst + "_want";
    VectorSearch search{{}, c};
    std::vector<std::string>& v = search.lines;
    v.push_back("const " + regType(t, cx.target.vectorBits) + " " + wantV + " = " +
                (isFloat(t) ? call(pfx(cx.target.vectorBits) + "set1_" + fsfx(t), {want}) : splatExpr(t, cx.target.vectorBits, want)) +
                ";");
    const auto [mask, per] = equalMask(t, loadExpr(t, cx.target.vectorBits, in(s.index) + " + " + c + (last ? " - " + L : "")), wantV);
    const std::string lane = last ? "(63 - __builtin_clzll(hit)) / " + std::to_string(per) : "__builtin_ctzll(hit) / " + std::to_string(per);
    if (!last) {
      v.push_back("int64_t " + c + " = " + lo + ";");
      v.push_back("for (; " + c + " + " + L + " <= " + hi + "; " + c + " += " + L + ") {");
      v.push_back("const uint64_t hit = " + mask + ";");
      v.push_back("if (hit) { " + s.dst + " = " + c + " + " + lane + "; break; }");
    } else {
      v.push_back("int64_t " + c + " = " + hi + ";");
      v.push_back("for (; " + c + " - " + L + " >= " + lo + "; " + c + " -= " + L + ") {");
      v.push_back("const uint64_t hit = " + mask + ";");
      v.push_back("if (hit) { " + s.dst + " = " + c + " - " + L + " + " + lane + "; break; }");
    }
    v.push_back("}");
    writeLocateEqual(w, search);
  }

  // Lane r reads element index + r * stride (columns of rows; a map's strided input). Whole
  // vectors follow docs/benchmarks.md ("Gather vs strided loads", Zen 4): AVX-512 32-bit lanes at a
  // static stride of 2..4 are whole loads and vpermt2ps (2-10 elements/cycle against 0.7 for
  // vgatherdps), anything else scalar loads inserted into 128-bit quarters (1.4-2x the gathers in
  // L1; gathers win by 1.1-1.4x only past L1 with each element on its own line). Partial vectors
  // (a predicate) take masked gathers (32/64-bit lanes) or a stack tile.
  void gatherRows() {
    const DType t = s.type.elem, from = source().dtype;
    const int lanes = s.type.lanes, bits = s.type.bits();
    const std::string stride = s.stride.str();
    if (from == t && s.pred.empty()) {
      const auto fixed = s.stride.constantValue();
      if (fixed && *fixed >= 2 && *fixed <= 4 && bits == 512 && bitsOf(t) == 32) return permutedLoads(int(*fixed));
      if (const int structure = byteStructureStride(); structure && s.readAhead >= 0) return byteStructureLoads(structure, "");
      return insertedLoads("");
    }
    // A partial vector (a prefix of lanes): the same inserts, each past lane 0 under its own test
    // (a masked vgatherdps and the offsets it needs cost more than the loads at small n).
    if (const auto range = s.pred.empty() ? std::nullopt : laneRange(s.pred, cx); from == t && range && !range->last) {
      // AVX-512: the whole vectors' shuffles over chunks loaded under byte masks (vmovdqu8 reads
      // nothing past the last active lane's element and zeroes the rest: the fill when it is 0).
      const bool zeroFill = s.literal.empty() || s.literal == "0";
      if (const int structure = byteStructureStride(); structure && kmasks(cx) && zeroFill) return byteStructureLoads(structure, range->count.str());
      return insertedLoads(range->count.str());
    }
    // Hardware gathers take 32-bit lane offsets: a static stride too large for them goes through the tile.
    const auto fixed = s.stride.constantValue();
    const bool hw = bitsOf(t) == bitsOf(from) && bitsOf(t) >= 32 && !(fixed && *fixed > 2147483647 / lanes);
    const std::string fillLit = s.literal.empty() ? "0" : s.literal;
    if (!hw) {
      // No byte/word gather exists on x86: fill the lanes from the rows through a small stack tile.
      cx.instructions.insert("8/16-bit or widening columns filled lane by lane through a stack tile (x86 has no byte gather)");
      const std::string stage = s.dst + "_stage";
      out.push_back("alignas(64) " + ctype(t) + " " + stage + "[" + std::to_string(lanes) + "];");
      const std::string row = "(" + ctype(t) + ")" + src() + "[" + s.index.str() + " + lane * " + stride + "]";
      std::string read = row;
      if (!s.pred.empty()) {
        // A prefix of rows compares r with its count; any other predicate is read lane by lane.
        std::string active;
        if (const auto range = laneRange(s.pred, cx); range && !range->last) {
          active = "lane < " + range->count.str();
        } else if (kmasks(cx)) {
          active = "(((uint64_t)" + predicate(s.pred, cx) + " >> lane) & 1)";
        } else {
          const std::string lanesOf = cx.local(s, "_active");
          out.push_back("alignas(32) " + ctype(t) + " " + lanesOf + "[" + std::to_string(lanes) + "];");
          out.push_back("_mm256_store_si256((__m256i*)" + lanesOf + ", " + predicate(s.pred, cx) + ");");
          active = lanesOf + "[lane]";
        }
        read = active + " ? " + row + " : (" + ctype(t) + ")(" + fillLit + ")";
      }
      out.push_back("for (int64_t lane = 0; lane < " + std::to_string(lanes) + "; ++lane) " + stage + "[lane] = " + read + ";");
      return assign(loadExpr(t, bits, stage));
    }
    cx.instructions.insert("vpgatherdd/vpgatherdq gathers (lane r reads element r * stride)");
    const int scale = bitsOf(t) / 8;
    const int idxBits = lanes * 32;  // 32-bit row offsets, one per lane
    const std::string idxType = idxBits == 128 ? "__m128i" : "__m" + std::to_string(idxBits) + "i";
    std::string offsets;
    for (int r = 0; r < lanes; ++r) offsets += (r ? ", " : "") + std::to_string(r);
    // One offset vector per stride and lane count (a map may gather several inputs).
    const std::string offsetsName = "offsets" + std::to_string(lanes) + "_" + c::identifierOf(stride);
    cx.hoist("// Lane offsets for the gathers: lane r reads element r * " + stride + " (stride checked above).");
    cx.hoist("const " + idxType + " " + offsetsName + " = " + pfx(idxBits) + "mullo_epi32(" + pfx(idxBits) + "setr_epi32(" + offsets +
             "), " + pfx(idxBits) + "set1_epi32((int)" + stride + "));");
    if (!fixed) cx.scalarFallbackWhen.insert(stride + " > 2147483647 / " + std::to_string(lanes));
    const std::string f = domain(t);
    const std::string base = "(const " + std::string(isFloat(t) ? ctype(t) : bitsOf(t) == 32 ? "int" : "long long") +
                             "*)(" + in(s.index) + ")";
    const std::string p = pfx(bits);
    if (s.pred.empty()) {
      if (cx.target.maskRegisters && bits == 512) return assign(call(p + "i32gather_" + f, {offsetsName, "(const void*)(" + in(s.index) + ")", std::to_string(scale)}));
      return assign(call(p + "i32gather_" + f, {base, offsetsName, std::to_string(scale)}));
    }
    const std::string fill = splatExpr(t, bits, fillLit);
    if (cx.target.maskRegisters)  // AVX-512 (VL for 128/256 bits): the k-mask governs the gather
      return assign(call(p + (bits == 512 ? "mask_i32gather_" : "mmask_i32gather_") + f,
                         {fill, predicate(s.pred, cx), offsetsName, "(const void*)(" + in(s.index) + ")", std::to_string(scale)}));
    const std::string active = castTo(predicate(s.pred, cx), DType::i32, bits, isFloat(t) ? fsfx(t) : "si");
    assign(call(p + "mask_i32gather_" + f, {fill, base, offsetsName, active, std::to_string(scale)}));
  }

  // Lane r writes element index + r * stride (a map's strided output), lane after lane in order.
  // x86 has no byte or word scatter (AVX-512's 32/64-bit vscatterdps is not used until measured
  // against this): the vector goes to a stack tile, then each active lane to its element, as g++
  // and clang build a strided store.
  void scatterRows() {
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const int lanes = v.lanes, bits = v.bits();
    const std::string L = std::to_string(lanes);
    cx.instructions.insert("strided stores: the vector stored to a stack tile, then each lane to its element");
    out.push_back("{");
    out.push_back("alignas(64) " + ctype(t) + " scattered[" + L + "];");
    out.push_back(storeStmt(t, bits, "scattered", s.args[0]));
    std::string active;
    if (!s.pred.empty()) {
      if (const auto range = laneRange(s.pred, cx); range && !range->last) {
        active = "lane < " + range->count.str();
      } else if (kmasks(cx)) {
        active = "(((uint64_t)" + predicate(s.pred, cx) + " >> lane) & 1)";
      } else {  // an AVX2 predicate: all-ones lanes of the element's width
        const int pbits = bits < 128 ? 128 : bits;
        const DType flag = integerOf(DType::u8, bitsOf(t));
        out.push_back("alignas(32) " + ctype(flag) + " scattered_on[" + std::to_string(pbits / bitsOf(t)) + "];");
        out.push_back(storeStmt(flag, pbits, "scattered_on", predicate(s.pred, cx)));
        active = "scattered_on[lane]";
      }
    }
    out.push_back(scatteredLanesLoop(w, L, active));
    out.push_back("}");
  }

  // Lanes from scalar loads, 128 bits at a time (vmovss/vpinsrd/vinsertps), then the quarters
  // combined (vinserti128/vinsertf32x4): what g++ builds for a strided loop, measured faster than
  // vgatherdps on Zen 4 whenever the input is in L1.
  void insertedLoads(const std::string& count) {
    const DType t = s.type.elem;
    const int lanes = s.type.lanes, bits = s.type.bits(), per = 128 / bitsOf(t);
    const auto fixed = s.stride.constantValue();
    const std::string at = s.dst + "_at";
    cx.instructions.insert("strided lanes: scalar loads inserted into 128-bit quarters");
    out.push_back("const " + ctype(t) + "* " + at + " = " + in(s.index) + ";");
    // _mm_setr_epi8/16/32 take char/short/int; 64-bit lanes are cast where they are set.
    const std::string cast = isFloat(t) || bitsOf(t) == 64 ? "" : "(" + std::string(bitsOf(t) == 8 ? "char" : bitsOf(t) == 16 ? "short" : "int") + ")";
    const std::string fill = cast + "(" + ctype(t) + ")(" + (s.literal.empty() ? "0" : s.literal) + ")";
    auto load = [&](int r) {
      return cast + at + "[" +
             (r == 0 ? "0" : r == 1 && !fixed ? s.stride.str() : fixed ? std::to_string(*fixed * r) : std::to_string(r) + " * " + s.stride.str()) + "]";
    };
    auto element = [&](int r) { return count.empty() ? load(r) : "(" + std::to_string(r) + " < " + count + " ? " + load(r) + " : " + fill + ")"; };
    std::vector<std::string> quarters;
    for (int q = 0; q * per < lanes; ++q) {
      const std::string name = bits <= 128 ? s.dst : s.dst + "_q" + std::to_string(q);
      if (!count.empty() && !isFloat(t)) {
        // Integer lanes of a partial vector: the fill, then pinsrb/w/d/q per active lane (one
        // short statement each, where a setr of 16 conditional bytes is one very long line).
        out.push_back((bits <= 128 ? w.decl() : regType(t, 128) + " " + name) + " = " + splatExpr(t, 128, s.literal.empty() ? "0" : s.literal) + ";");
        for (int k = 0; k < per && q * per + k < lanes; ++k) {
          const int r = q * per + k;
          out.push_back("if (" + std::to_string(r) + " < " + count + ") " + name + " = " +
                        call("_mm_insert_epi" + std::to_string(bitsOf(t)), {name, (bitsOf(t) == 64 ? "(long long)" : "") + load(r), std::to_string(k)}) + ";");
        }
        if (bits <= 128) return;
        quarters.push_back(name);
        continue;
      }
      std::vector<std::string> v;
      for (int k = 0; k < per; ++k) v.push_back(q * per + k < lanes ? element(q * per + k) : "0");  // past a fractional vector
      std::string e;
      if (t == DType::f32) e = call("_mm_setr_ps", v);
      else if (t == DType::f64) e = call("_mm_setr_pd", v);
      else if (bitsOf(t) == 64) e = call("_mm_set_epi64x", {"(long long)" + v[1], "(long long)" + v[0]});
      else e = call("_mm_setr_epi" + std::to_string(bitsOf(t)), v);
      if (bits <= 128) return assign(e);
      out.push_back("const " + regType(t, 128) + " " + name + " = " + e + ";");
      quarters.push_back(name);
    }
    const std::string f = isFloat(t) ? fsfx(t) : "si";
    const std::string m = t == DType::f32 ? "" : t == DType::f64 ? "d" : "i";
    if (bits == 256) return assign(call("_mm256_set_m128" + m, {quarters[1], quarters[0]}));
    assign(call("_mm512_cast" + f + "128_" + f + "512", {quarters[0]}));
    const std::string ins = t == DType::f32 ? "_mm512_insertf32x4" : t == DType::f64 ? "_mm512_insertf64x2" : "_mm512_inserti32x4";
    for (int q = 1; q < 4; ++q) out.push_back(s.dst + " = " + call(ins, {s.dst, quarters[size_t(q)], std::to_string(q)}) + ";");
  }
  // AVX-512, 32-bit lanes, static stride S in 2..4: the 16 * S elements from lane 0's as S whole
  // loads (the last one masked to the elements up to lane 15's, so nothing past it is read), then
  // S - 1 vpermt2ps: each fills the lanes whose element is in the next load.
  void permutedLoads(int stride) {
    const DType t = s.type.elem;
    const std::string at = s.dst + "_at", e = isFloat(t) ? "ps" : "epi32";
    cx.instructions.insert("strided lanes at a static stride of 2..4: whole loads and vpermt2ps");
    out.push_back("const " + ctype(t) + "* " + at + " = " + in(s.index) + ";");
    std::vector<std::string> parts;
    for (int k = 0; k < stride; ++k) {
      const std::string ptr = k ? at + " + " + std::to_string(16 * k) : at;
      const int needed = std::min(16, 15 * stride - 16 * k + 1);  // elements of this load up to lane 15's
      parts.push_back(needed == 16 ? loadExpr(t, 512, ptr)
                                   : call("_mm512_maskz_loadu_" + e, {"(__mmask16)" + std::to_string((1u << needed) - 1), ptr}));
    }
    std::string v = parts[0];
    for (int k = 1; k < stride; ++k) {
      std::vector<std::string> idx;
      for (int l = 0; l < 16; ++l) {
        const int elem = l * stride, from = elem / 16;
        idx.push_back(k == 1 ? std::to_string(from <= 1 ? elem : 0) : std::to_string(from == k ? 16 + elem - 16 * k : from < k ? l : 0));
      }
      const std::string name = "deinterleave" + std::to_string(stride) + "_" + std::to_string(k);
      cx.hoist("// vpermt2ps lane tables for a stride of " + std::to_string(stride) + ": lane l takes element l * " + std::to_string(stride) +
               " (16 + i: lane i of the second source).");
      cx.hoist("const __m512i " + name + " = " + call("_mm512_setr_epi32", idx) + ";");
      v = call("_mm512_permutex2var_" + e, {v, name, parts[size_t(k)]});
    }
    assign(v);
  }

  // AVX512_VBMI: 8/16-bit lanes at a static stride of 2..4 from `stride` whole-vector loads
  // covering the span, permuted bytewise across the register: vpermt2b picks from the first two
  // loads, a merge-masked vpermb (the third) or vpermt2b (the third and fourth) fills the bytes
  // past them. Two or three shuffles per vector where vpshufb needs one per 16-byte chunk and the
  // inserts (measured on Zen 4 in bench/rgb). With a lane count (an AVX-512 partial vector) each
  // load is masked to stop after the last active lane's element, and zeroes the lanes after it.
  // The static stride (2..4) of 8/16-bit lanes in a vector of 64 bits or more that whole loads
  // and shuffles read as structures; 0 for any other load.
  int byteStructureStride() const {
    const auto fixed = s.stride.constantValue();
    const bool fits = bitsOf(s.type.elem) <= 16 && s.type.bits() >= 64 && fixed && *fixed >= 2 && *fixed <= 4;
    return fits ? int(*fixed) : 0;
  }
  // VBMI's byte permutes from 128 bits on, else vpshufb per 16-byte chunk.
  void byteStructureLoads(int stride, const std::string& count) {
    if (cx.target.has("vbmi") && s.type.bits() >= 128) return permutedByteLoads(stride, count);
    shuffledLoads(stride, count);
  }

  // The structures' first element (`<dst>_at`) and, with a lane count, how many bytes from it a
  // partial vector may read (`<dst>_bytes`: up to the last active lane's element).
  std::pair<std::string, std::string> structureStart(int stride, const std::string& count) {
    const int eb = bitsOf(s.type.elem) / 8;
    const std::string at = s.dst + "_at", readable = s.dst + "_bytes";
    out.push_back("const " + ctype(s.type.elem) + "* " + at + " = " + in(s.index) + ";");
    if (!count.empty()) {
      cx.helpers.insert("lanes_below");
      out.push_back("const int64_t " + readable + " = (" + count + ") * " + std::to_string(stride * eb) + " - " + std::to_string((stride - 1) * eb) +
                    ";");
    }
    return {at, readable};
  }

  void permutedByteLoads(int stride, const std::string& count) {
    const DType t = s.type.elem;
    const int bits = s.type.bits(), eb = bitsOf(t) / 8, width = bits / 8;  // bytes per register
    const std::string p = pfx(bits), reg = "__m" + std::to_string(bits) + "i", maskType = "__mmask" + std::to_string(width);
    cx.instructions.insert("strided 8/16-bit lanes at a static stride of 2..4: whole-vector loads permuted by vpermt2b/vpermb (VBMI)");
    const auto [at, readable] = structureStart(stride, count);
    std::vector<std::string> loads;
    for (int k = 0; k < stride; ++k) {
      const std::string ptr = "(const void*)(" + at + " + " + std::to_string(k * width / eb) + ")";
      const std::string name = s.dst + "_" + std::to_string(k);
      std::string load = count.empty() ? (bits == 512 ? call("_mm512_loadu_si512", {ptr}) : call(p + "loadu_si" + std::to_string(bits), {"(const " + reg + "*)" + ptr}))
                                       : call(p + "maskz_loadu_epi8", {"(" + maskType + ")simdgen_lanes_below(" + readable + " - " + std::to_string(k * width) + ", " +
                                                                           std::to_string(width) + ")",
                                                                       ptr});
      out.push_back("const " + reg + " " + name + " = " + load + ";");
      loads.push_back(name);
    }
    // Output byte o comes from byte src(o) of the span; pair q of loads covers bytes [2q, 2q + 2) * width.
    const auto src = [&](int o) { return (o / eb) * stride * eb + o % eb; };
    std::string v;
    for (int q = 0; 2 * q < stride; ++q) {
      std::vector<std::string> index(size_t(width), "0");
      uint64_t mine = 0;
      std::string lanesText;
      for (int o = 0; o < width; ++o) {
        if (src(o) / (2 * width) != q) continue;
        index[size_t(o)] = std::to_string(src(o) - 2 * q * width);
        mine |= uint64_t(1) << o;
        lanesText += " " + std::to_string(o) + "<-" + index[size_t(o)];
      }
      const bool single = 2 * q + 1 >= stride;  // the last load on its own (a stride of 3)
      const std::string name = "deinterleave" + std::string(nameOf(t)) + "_" + std::to_string(stride) + "_" + std::to_string(bits) + "_" + std::to_string(q);
      cx.hoist("// " + std::string(single ? "vpermb" : "vpermt2b") + " index for a stride of " + std::to_string(stride) + ", " + std::to_string(bits) +
               "-bit vectors, loads " + std::to_string(2 * q) + (single ? "" : " and " + std::to_string(2 * q + 1)) + " (byte <- byte of " +
               (single ? "the load" : "the pair") + "):" + lanesText);
      // _mm512_set_epi8 takes its bytes from the highest (GCC 12 has no _mm512_setr_epi8).
      std::vector<std::string> order = index;
      if (bits == 512) std::reverse(order.begin(), order.end());
      cx.hoist("const " + reg + " " + name + " = " + call(p + (bits == 512 ? "set_epi8" : "setr_epi8"), order) + ";");
      const std::string pick = single ? call(p + "permutexvar_epi8", {name, loads[size_t(2 * q)]})
                                      : call(p + "permutex2var_epi8", {loads[size_t(2 * q)], name, loads[size_t(2 * q + 1)]});
      if (v.empty()) {
        v = pick;
        continue;
      }
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llxull", (unsigned long long)mine);
      const std::string k = "(" + maskType + ")" + hex;
      v = single ? call(p + "mask_permutexvar_epi8", {v, k, name, loads[size_t(2 * q)]}) : call(p + "mask_blend_epi8", {k, v, pick});
    }
    assign(v);
  }

  // 8/16-bit lanes at a static stride of 2..4 whose whole span may be read (the plan's readAhead:
  // lanes * stride elements from the first): each 128-bit block of the result gathers its lanes
  // from `stride` consecutive 16-byte chunks of the input, one vpshufb per chunk (the same table
  // in every block: blocks start lanes-per-block * stride elements apart), OR-ed together. A
  // 256-bit vector loads each chunk's two blocks into the halves of one register first. A 512-bit
  // vector is two such 256-bit halves joined by vinserti64x4: measured on Zen 4 (bench/rgb), zmm
  // vpshufb over four vinserti32x4 runs at 0.67x the 256-bit form, and vpermb needs VBMI, which
  // the avx512 targets do not assume.
  // With a lane count (a partial vector on AVX-512), each chunk is loaded under a byte mask that
  // stops after the last active lane's element.
  void shuffledLoads(int stride, const std::string& count) {
    const DType t = s.type.elem;
    const int bits = s.type.bits(), eb = bitsOf(t) / 8;
    const int blockBytes = std::min(bits / 8, 16), blocks = std::max(1, bits / 128);
    if (blocks > 4) throw std::logic_error("internal error: shuffled strided loads of " + std::to_string(bits) + " bits");
    const int span = blockBytes * stride;  // input bytes per block
    cx.instructions.insert("strided 8/16-bit lanes at a static stride of 2..4: whole 16-byte loads and vpshufb");
    const auto [at, readable] = structureStart(stride, count);
    // Blocks first .. first + n - 1 (n is 1 or 2) as one 128- or 256-bit vector.
    auto part = [&](int first, int n) {
      std::string v;
      for (int j = 0; j * 16 < span; ++j) {
        const int bytes = std::min(16, span - 16 * j);  // 16, or 8 (the second chunk of a 64-bit vector at a stride of 3)
        std::vector<std::string> table;
        std::string lanesText;
        for (int o = 0; o < 16; ++o) {
          const int from = o < blockBytes ? (o / eb) * stride * eb + o % eb - 16 * j : -1;
          table.push_back(from >= 0 && from < bytes ? std::to_string(from) : "-128");
          if (from >= 0 && from < bytes) lanesText += " " + std::to_string(o) + "<-" + std::to_string(from);
        }
        const std::string name = "deinterleave" + std::string(nameOf(t)) + "_" + std::to_string(stride) + "_" + std::to_string(j) +
                                 (blockBytes < 16 ? "_half" : "");
        cx.hoist("// vpshufb table for a stride of " + std::to_string(stride) + ", chunk " + std::to_string(j) + " (byte <- byte of the chunk):" +
                 lanesText);
        cx.hoist("const __m128i " + name + " = " + call("_mm_setr_epi8", table) + ";");
        auto chunk = [&](int b) {
          const int offset = (first + b) * span + 16 * j;  // bytes
          const std::string ptr = "(const void*)(" + at + " + " + std::to_string(offset / eb) + ")";
          if (!count.empty())
            return call("_mm_maskz_loadu_epi8", {"(__mmask16)simdgen_lanes_below(" + readable + " - " + std::to_string(offset) + ", 16)", ptr});
          return bytes == 16 ? call("_mm_loadu_si128", {"(const __m128i*)" + ptr}) : call("_mm_loadl_epi64", {"(const __m128i*)" + ptr});
        };
        std::string shuffled = call("_mm_shuffle_epi8", {chunk(0), name});
        if (n == 2)
          shuffled = call("_mm256_shuffle_epi8", {call("_mm256_inserti128_si256", {call("_mm256_castsi128_si256", {chunk(0)}), chunk(1), "1"}),
                                                  call("_mm256_broadcastsi128_si256", {name})});
        v = v.empty() ? shuffled : call(n == 1 ? "_mm_or_si128" : "_mm256_or_si256", {v, shuffled});
      }
      return v;
    };
    if (blocks < 4) return assign(part(0, blocks));
    out.push_back("const __m256i " + s.dst + "_lo = " + part(0, 2) + ";");
    out.push_back("const __m256i " + s.dst + "_hi = " + part(2, 2) + ";");
    assign(call("_mm512_inserti64x4", {call("_mm512_castsi256_si512", {s.dst + "_lo"}), s.dst + "_hi", "1"}));
  }

  void extend() {
    const VecType src = typeOf(s.args[0]);
    const DType from = src.elem, to = s.type.elem;
    const int bits = s.type.bits();
    if (src.lanes == s.type.lanes) {  // the whole (fractional) source widens: one vcvtps2pd / vpmovsx / vpmovzx
      cx.instructions.insert("vpmovsx/vpmovzx/vcvtps2pd widening between element widths");
      if (isFloat(from)) return assign(call(pfx(bits) + "cvtps_pd", {s.args[0]}));
      return assign(call(pfx(bits) + "cvtep" + (isSigned(from) ? "i" : "u") + std::to_string(bitsOf(from)) + "_epi" +
                             std::to_string(bitsOf(to)),
                         {s.args[0]}));
    }
    const int factor = bitsOf(to) / bitsOf(from);
    const int chunk = src.bits() / factor;
    const std::string x = s.args[0];
    std::string piece;
    if (bits == 512) {
      if (isFloat(from)) piece = call("_mm512_extractf32x8_ps", {x, std::to_string(s.part)});
      else if (chunk == 256) piece = call("_mm512_extracti64x4_epi64", {x, std::to_string(s.part)});
      else piece = call("_mm512_extracti32x4_epi32", {x, std::to_string(s.part)});
    } else {
      if (isFloat(from)) piece = call("_mm256_extractf128_ps", {x, std::to_string(s.part)});
      else if (chunk == 128) piece = call("_mm256_extracti128_si256", {x, std::to_string(s.part)});
      else {
        piece = call("_mm256_extracti128_si256", {x, std::to_string(s.part / 2)});
        if (s.part % 2) piece = call("_mm_srli_si128", {piece, "8"});
      }
    }
    if (isFloat(from)) return assign(call(pfx(bits) + "cvtps_pd", {piece}));
    const std::string cvt = std::string("cvtep") + (isSigned(from) ? "i" : "u") + std::to_string(bitsOf(from)) + "_epi" +
                            std::to_string(bitsOf(to));
    cx.instructions.insert("vpmovsx/vpmovzx widening");
    assign(call(pfx(bits) + cvt, {piece}));
  }

  void binary() {
    assign(binaryExpr(s.rop, s.type.elem, s.type.bits(), s.args[0], s.args[1], cx));
  }

  void dotAccumulate() {
    const DType from = typeOf(s.args[1]).elem, acc = s.type.elem;
    const int bits = s.type.bits();
    const std::string p = pfx(bits), a = s.args[0], x = s.args[1];
    const bool avx512 = bits == 512;
    auto ones = [&](int elemBits) {
      const std::string name = elemBits == 8 ? "ones_u8" : "ones_i16";
      cx.hoist("const " + regType(DType::i32, bits) + " " + name + " = " +
               call(p + (elemBits == 8 ? "set1_epi8" : "set1_epi16"), {"1"}) + ";");
      return name;
    };
    const bool vnni = cx.target.has("vnni") || cx.target.has("avx_vnni");
    const std::string vnniSfx = avx512 ? "_epi32" : "_avx_epi32";
    if (from == DType::u8) {
      cx.instructions.insert("vpsadbw: sums of 8 unsigned bytes per 64-bit lane");
      cx.hoist("const " + regType(DType::i32, bits) + " zero = " + p + "setzero_" + si(bits) + "();");
      return assign(call(p + "add_epi64", {a, call(p + "sad_epu8", {x, "zero"})}));
    }
    if (from == DType::i8 && acc == DType::i32) {
      if (vnni) {
        cx.instructions.insert("vpdpbusd: 4 int8 products with a ones vector, accumulated per int32 lane");
        return assign(call(p + "dpbusd" + vnniSfx, {a, ones(8), x}));
      }
      cx.instructions.insert("vpmaddubsw + vpmaddwd: 4 int8 per int32 lane without VNNI");
      return assign(call(p + "add_epi32", {a, call(p + "madd_epi16", {call(p + "maddubs_epi16", {ones(8), x}), ones(16)})}));
    }
    if (from == DType::i8 && acc == DType::i16) {
      cx.instructions.insert("vpmaddubsw: 2 int8 per int16 lane");
      return assign(call(p + "add_epi16", {a, call(p + "maddubs_epi16", {ones(8), x})}));
    }
    if (from == DType::i16 && acc == DType::i32) {
      if (vnni) {
        cx.instructions.insert("vpdpwssd: 2 int16 products with a ones vector per int32 lane");
        return assign(call(p + "dpwssd" + vnniSfx, {a, x, ones(16)}));
      }
      cx.instructions.insert("vpmaddwd: 2 int16 per int32 lane");
      return assign(call(p + "add_epi32", {a, call(p + "madd_epi16", {x, ones(16)})}));
    }
    throw std::logic_error("no lowering for dot_accumulate " + std::string(nameOf(from)) + " -> " + std::string(nameOf(acc)));
  }

  // Halves folded down to 128 bits, then in-register byte shifts: log2(lanes) steps.
  void reduceLanes() {
    if (s.pairwise) throw std::logic_error("x86 lowers reduce_lanes by halves only (pairwise is an Arm order)");
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const bool f = isFloat(t);
    std::string cur = s.args[0];
    int bits = v.bits();
    const std::string tmp = s.dst + "_h";  // not "_v": a map input x loads into x_v
    cx.instructions.insert("log2-step horizontal reduction (extract halves, then byte shifts)");
    if (bits == 512) {
      const std::string lo = f ? (t == DType::f32 ? "_mm512_castps512_ps256(" : "_mm512_castpd512_pd256(") + cur + ")"
                               : "_mm512_castsi512_si256(" + cur + ")";
      const std::string hi = f ? (t == DType::f32 ? "_mm512_extractf32x8_ps(" : "_mm512_extractf64x4_pd(") + cur + ", 1)"
                               : "_mm512_extracti64x4_epi64(" + cur + ", 1)";
      out.push_back(regType(t, 256) + " " + tmp + "256 = " + binaryExpr(s.rop, t, 256, lo, hi, cx) + ";");
      cur = tmp + "256";
      bits = 256;
    }
    if (bits == 256) {
      const std::string lo = f ? (t == DType::f32 ? "_mm256_castps256_ps128(" : "_mm256_castpd256_pd128(") + cur + ")"
                               : "_mm256_castsi256_si128(" + cur + ")";
      const std::string hi = f ? "_mm256_extractf128_" + fsfx(t) + "(" + cur + ", 1)" : "_mm256_extracti128_si256(" + cur + ", 1)";
      out.push_back(regType(t, 128) + " " + tmp + " = " + binaryExpr(s.rop, t, 128, lo, hi, cx) + ";");
    } else {
      out.push_back(regType(t, 128) + " " + tmp + " = " + cur + ";");
    }
    for (int shift = 8; shift >= bytesOf(t); shift /= 2) {
      std::string shifted = "_mm_srli_si128(" + (f ? "_mm_cast" + fsfx(t) + "_si128(" + tmp + ")" : tmp) + ", " + std::to_string(shift) + ")";
      if (f) shifted = "_mm_castsi128_" + fsfx(t) + "(" + shifted + ")";
      out.push_back(tmp + " = " + binaryExpr(s.rop, t, 128, tmp, shifted, cx) + ";");
    }
    std::string lane0;
    if (t == DType::f32) lane0 = "_mm_cvtss_f32(" + tmp + ")";
    else if (t == DType::f64) lane0 = "_mm_cvtsd_f64(" + tmp + ")";
    else if (bitsOf(t) == 64) lane0 = carry("(" + ctype(t) + ")_mm_cvtsi128_si64(" + tmp + ")");
    else lane0 = carry("(" + ctype(t) + ")_mm_cvtsi128_si32(" + tmp + ")");
    assign(lane0);
  }

  // The multi-row fold network: each stage pairs vectors and folds blocks (see FoldNetwork).
  // The multi-row fold network: each stage pairs vectors and combines the two shuffles of the
  // pair that FoldNetwork::stage names (see plan.h), so the lane simulator proves this exact code.
  void reduceRows() {
    const DType t = s.type.elem;
    const int bits = s.type.bits();
    cx.instructions.insert("fold network for the final reductions of several rows (vshufi32x4/vperm2i128, vunpck, vshufps)");
    std::vector<std::string> vecs = s.args;
    for (size_t stage = 0; stage < s.network.blockLanes.size(); ++stage) {
      const auto [lower, upper] = s.network.stage(stage);
      std::vector<std::string> next;
      for (size_t m = 0; m + 1 < vecs.size(); m += 2) {
        const std::string name = vecs.size() == 2 ? s.dst : "fold" + std::to_string(stage) + "_" + std::to_string(m / 2);
        const std::string lo = shuffleCall(lower, s.type, vecs[m], vecs[m + 1]);
        const std::string hi = shuffleCall(upper, s.type, vecs[m], vecs[m + 1]);
        out.push_back(cppType(s.type) + " " + name + " = " + binaryExpr(s.rop, t, bits, lo, hi, cx) + ";");
        next.push_back(name);
      }
      vecs = next;
    }
  }

  void store() {
    const VecType v = typeOf(s.args[0]);
    if (s.streaming) cx.instructions.insert("movntps / movntdq streaming (non-temporal) stores");
    out.push_back((s.streaming ? streamStmt : storeStmt)(v.elem, v.bits(), outp(s.index), s.args[0]));
  }
};

}  // namespace

// ---- predicates, predicated ops, fma, select, broadcast, shuffles -------------------------------
// A predicate is a k-mask on AVX-512 and a vector whose active lanes are all ones (of the
// element width) on AVX2. Predicated arithmetic computes every lane, then blends: one extra
// instruction, the same for every op.

namespace {

void fma(X86Writer& x, const std::string& dst) {
  const DType t = x.s.type.elem;
  const int bits = x.s.type.bits();
  if (!kmasks(x.cx) && !x.cx.target.has("fma"))
    throw std::logic_error("fma needs one rounding: use target avx2+fma (plain avx2 has no fused multiply-add)");
  x.cx.instructions.insert("vfmadd fused multiply-add");
  x.out.push_back(dst + " = " + call(pfx(bits) + "fmadd_" + fsfx(t), {x.s.args[1], x.s.args[2], x.s.args[0]}) + ";");
}

// One named shuffle of a and b (vectors of `type`), in the domain of the element type where the
// instruction exists for it (shuffle_f32x4, permute2f128_pd...), through casts otherwise.
std::string shuffleCall(const ir::Shuffle& sh, VecType type, const std::string& a, const std::string& b) {
  const DType t = type.elem;
  const int bits = type.bits(), eb = bitsOf(t);
  const std::string p = pfx(bits);
  const int unit = sh.unitBits ? sh.unitBits : eb;
  auto as = [&](const std::string& v, const std::string& d) { return castTo(v, t, bits, d); };
  // expr (in domain d) reinterpreted as the element type's vector again
  auto back = [&](const std::string& d, const std::string& expr) {
    return castTo(expr, d == "ps" ? DType::f32 : d == "pd" ? DType::f64 : DType::i32, bits, isFloat(t) ? fsfx(t) : "si");
  };
  auto hex = [](int v) {
    static const char* digits = "0123456789ABCDEF";
    return std::string("0x") + digits[(v >> 4) & 15] + digits[v & 15];
  };
  using K = ir::Shuffle::Kind;
  switch (sh.kind) {
    case K::unpack_lo:
    case K::unpack_hi: {
      const std::string half = sh.kind == K::unpack_lo ? "unpacklo_" : "unpackhi_";
      if (isFloat(t) && unit >= 32) {
        const std::string d = unit == 32 ? "ps" : "pd";
        return back(d, call(p + half + d, {as(a, d), as(b, d)}));
      }
      return back("si", call(p + half + "epi" + std::to_string(unit), {as(a, "si"), as(b, "si")}));
    }
    case K::shuffle_ps: return back("ps", call(p + "shuffle_ps", {as(a, "ps"), as(b, "ps"), hex(sh.imm)}));
    case K::lanes128:
      if (bits == 512) {
        const std::string fn = t == DType::f32 ? "_mm512_shuffle_f32x4" : t == DType::f64 ? "_mm512_shuffle_f64x2" : "_mm512_shuffle_i32x4";
        return call(fn, {a, b, hex(sh.imm)});
      }
      if (bits == 256) {
        const std::string fn = isFloat(t) ? "_mm256_permute2f128_" + fsfx(t) : "_mm256_permute2x128_si256";
        return call(fn, {a, b, hex(sh.imm)});
      }
      break;
    case K::concat_halves:
      if (bits == 512)
        return back("si", sh.imm ? call("_mm512_shuffle_i64x2", {as(a, "si"), as(b, "si"), "0xEE"})
                                 : call("_mm512_inserti64x4", {as(a, "si"), call("_mm512_castsi512_si256", {as(b, "si")}), "1"}));
      if (bits == 256) return back("si", call("_mm256_permute2x128_si256", {as(a, "si"), as(b, "si"), sh.imm ? "0x31" : "0x20"}));
      break;
    case K::explicit_map: {
      if (bits != 512 || (eb != 32 && eb != 64)) break;
      // Two-source permute (vpermt2d/q): index l < lanes picks a, the rest b.
      const std::vector<int> map = sh.laneMap(type.lanes, eb);
      std::string idx;
      if (eb == 32) {
        for (size_t l = 0; l < map.size(); ++l) idx += (l ? ", " : "") + std::to_string(map[l]);
        return back("si", call("_mm512_permutex2var_epi32", {as(a, "si"), "_mm512_setr_epi32(" + idx + ")", as(b, "si")}));
      }
      for (size_t l = map.size(); l-- > 0;) idx += std::to_string(map[l]) + (l ? ", " : "");  // set_epi64: high lane first
      return back("si", call("_mm512_permutex2var_epi64", {as(a, "si"), "_mm512_set_epi64(" + idx + ")", as(b, "si")}));
    }
    default: break;
  }
  throw std::logic_error("no x86 lowering for shuffle " + sh.str() + " on " + ir::toString(type));
}

// AVX2 integer narrowing (and f64 -> f32) of a vector to its fractional twin: saturation clamps
// to the destination's range at the source width first; then each halving of the width packs the
// low half of every lane (shufps 0x88 for 64 -> 32; for 32 -> 16 and 16 -> 8 the saturating pack
// of the destination's signedness once clamped, and-mask + packus to wrap), the two 128-bit halves
// of a 256-bit source together.
void narrowAvx2(X86Writer& x, ConvMode mode) {
  const Stmt& s = x.s;
  const VecType from = x.typeOf(s.args[0]);
  const DType f = from.elem, t = s.type.elem;
  const int srcBits = from.bits();
  x.cx.instructions.insert("AVX2 narrowing between element widths: clamp, then pack (shufps / packus) per halving");
  if (isFloat(f)) return x.assign(call(pfx(srcBits) + "cvtpd_ps", {s.args[0]}));
  std::string v = s.args[0];
  if (mode == ConvMode::sat) {
    const int tb = bitsOf(t);
    const bool fs = isSigned(f);
    const std::string hi = std::to_string(isSigned(t) ? (uint64_t{1} << (tb - 1)) - 1 : (uint64_t{1} << tb) - 1) + "ull";
    if (fs) {
      const std::string lo = isSigned(t) ? "-" + std::to_string(uint64_t{1} << (tb - 1)) + "ll" : "0";
      v = binaryExpr(ReduceOp::max, f, srcBits, v, splatExpr(f, srcBits, lo), x.cx);
    }
    v = binaryExpr(ReduceOp::min, f, srcBits, v, splatExpr(f, srcBits, hi), x.cx);
    const std::string clampedName = s.dst + "_c";
    x.out.push_back(regType(f, srcBits) + " " + clampedName + " = " + v + ";");
    v = clampedName;
  }
  std::string lo = srcBits == 256 ? call("_mm256_castsi256_si128", {v}) : v;
  std::string hi = srcBits == 256 ? call("_mm256_extracti128_si256", {v, "1"}) : lo;
  if (srcBits == 256) {  // name the halves once: each is used twice below
    x.out.push_back("__m128i " + s.dst + "_lo = " + lo + ";");
    x.out.push_back("__m128i " + s.dst + "_hi = " + hi + ";");
    lo = s.dst + "_lo";
    hi = s.dst + "_hi";
  }
  int w = bitsOf(f);
  std::string cur;
  while (w > bitsOf(t)) {
    if (w == 64) {
      cur = call("_mm_castps_si128", {call("_mm_shuffle_ps", {call("_mm_castsi128_ps", {lo}), call("_mm_castsi128_ps", {hi}), "0x88"})});
    } else if (mode == ConvMode::sat) {  // clamped: the saturating pack of the destination's signedness is exact
      const std::string pack = std::string(isSigned(t) ? "_mm_packs_epi" : "_mm_packus_epi") + (w == 32 ? "32" : "16");
      cur = call(pack, {lo, hi});
    } else {
      const std::string mask = call(w == 32 ? "_mm_set1_epi32" : "_mm_set1_epi16", {w == 32 ? "0xFFFF" : "0x00FF"});
      cur = call(w == 32 ? "_mm_packus_epi32" : "_mm_packus_epi16", {call("_mm_and_si128", {lo, mask}), call("_mm_and_si128", {hi, mask})});
    }
    w /= 2;
    if (w > bitsOf(t)) {
      const std::string name = s.dst + "_" + std::to_string(w);
      x.out.push_back("__m128i " + name + " = " + cur + ";");
      lo = hi = name;
    }
  }
  x.assign(cur);
}

// Convert between types of one width (same lane count): native where the ISA has the conversion,
// with fixups for the defined semantics (ir::OpKind::Convert); otherwise lane by lane through
// memory (AVX2: f64 -> 64-bit integers and 64-bit saturation).
void convert(X86Writer& x) {
  const Stmt& s = x.s;
  const VecType from = x.typeOf(s.args[0]);
  const DType f = from.elem, t = s.type.elem;
  const int bits = s.type.bits(), eb = bitsOf(t);
  const std::string p = pfx(bits), a = s.args[0];
  const bool k = kmasks(x.cx);
  const ConvMode mode = s.conv == ConvMode::plain && isFloat(f) && !isFloat(t) ? ConvMode::trunc : s.conv;
  const bool intToNarrowerFloat = isFloat(t) && !isFloat(f) && bitsOf(f) > eb;  // i64/u64 -> f32
  if (bitsOf(f) > eb && !k && !intToNarrowerFloat) return narrowAvx2(x, mode);
  if (bitsOf(f) > eb && k) {  // narrowing (AVX-512): vpmov[s|us]*, vcvtpd2ps, vcvt[u]qq2ps from the wider register
    const std::string ps = pfx(from.bits()), fw = std::to_string(bitsOf(f));
    x.cx.instructions.insert("vpmov/vpmovs/vpmovus narrowing, vcvtpd2ps, vcvtqq2ps between element widths");
    if (isFloat(f)) return x.assign(call(ps + "cvtpd_ps", {a}));
    if (isFloat(t)) return x.assign(call(ps + "cvtep" + (isSigned(f) ? "i" : "u") + fw + "_ps", {a}));
    const std::string to = "_epi" + std::to_string(eb);
    if (mode != ConvMode::sat) return x.assign(call(ps + "cvtepi" + fw + to, {a}));  // wraps: the low bits
    if (isSigned(f) == isSigned(t)) return x.assign(call(ps + (isSigned(f) ? "cvtsepi" : "cvtusepi") + fw + to, {a}));
    if (isSigned(f))  // negatives to 0 first, then an unsigned saturation
      return x.assign(call(ps + "cvtusepi" + fw + to, {call(ps + "max_epi" + fw, {a, splatExpr(f, from.bits(), "0")})}));
    const std::string max = std::to_string((uint64_t{1} << (eb - 1)) - 1);
    return x.assign(call(ps + "cvtepi" + fw + to, {call(ps + "min_epu" + fw, {a, splatExpr(f, from.bits(), max)})}));
  }
  if (intToNarrowerFloat) {
    // AVX2 has no 64-bit integer to float conversion: lane by lane below.
  } else if (!isFloat(f) && !isFloat(t)) {
    if (mode != ConvMode::sat || isSigned(f) == isSigned(t)) return x.assign(a);  // the same bits
    if (k || eb < 64) {
      if (isSigned(f)) return x.assign(call(p + "max_" + epi(f), {a, splatExpr(f, bits, "0")}));
      return x.assign(call(p + "min_epu" + std::to_string(eb), {a, splatExpr(f, bits, std::to_string((uint64_t{1} << (eb - 1)) - 1) + "ull")}));
    }
  } else if (!isFloat(f)) {  // an integer to a float
    if (isSigned(f) && (eb == 32 || k)) return x.assign(call(p + "cvt" + epi(f) + "_" + fsfx(t), {a}));
    if (!isSigned(f) && k) return x.assign(call(p + "cvtepu" + std::to_string(eb) + "_" + fsfx(t), {a}));
    if (eb == 64) {  // AVX2: the 64-bit integer's high and low parts as exact doubles, one rounding at the add
      const std::string c = s.dst + "_hi";
      auto pd = [&](const char* v) { return call("_mm256_castpd_si256", {call("_mm256_set1_pd", {v})}); };
      if (isSigned(f)) {  // high 48 bits (signed) + 3 * 2^67, low 16 bits under 2^52
        x.out.push_back("__m256i " + c + " = " + call("_mm256_blend_epi16", {call("_mm256_srai_epi32", {a, "16"}), "_mm256_setzero_si256()", "0x33"}) + ";");
        x.out.push_back(c + " = " + call("_mm256_add_epi64", {c, pd("442721857769029238784.0")}) + ";");
        const std::string lo = call("_mm256_blend_epi16", {a, pd("4503599627370496.0"), "0x88"});
        return x.assign(call("_mm256_add_pd", {call("_mm256_sub_pd", {call("_mm256_castsi256_pd", {c}), "_mm256_set1_pd(442726361368656609280.0)"}),
                                               call("_mm256_castsi256_pd", {lo})}));
      }
      // high 32 bits under 2^84, low 32 bits under 2^52
      x.out.push_back("__m256i " + c + " = " + call("_mm256_or_si256", {call("_mm256_srli_epi64", {a, "32"}), pd("19342813113834066795298816.0")}) + ";");
      const std::string lo = call("_mm256_blend_epi16", {a, pd("4503599627370496.0"), "0xCC"});
      return x.assign(call("_mm256_add_pd", {call("_mm256_sub_pd", {call("_mm256_castsi256_pd", {c}), "_mm256_set1_pd(19342813118337666422669312.0)"}),
                                             call("_mm256_castsi256_pd", {lo})}));
    }
    if (!isSigned(f) && eb == 32) {  // AVX2 u32: hi16 * 65536 (exact) + lo16, rounded once by the add
      const std::string hi = call(p + "cvtepi32_ps", {call(p + "srli_epi32", {a, "16"})});
      const std::string lo = call(p + "cvtepi32_ps", {call(p + "and_" + si(bits), {a, splatExpr(f, bits, "65535")})});
      return x.assign(call(p + "add_ps", {call(p + "mul_ps", {hi, splatExpr(t, bits, "65536.0f")}), lo}));
    }
  } else if (!k && f == DType::f32 && !isSigned(t)) {  // AVX2 f32 -> u32
    const char* imm = mode == ConvMode::nearest ? "0x08" : mode == ConvMode::floor ? "0x09" : mode == ConvMode::ceil ? "0x0A" : "0x0B";
    // max(r, 0): negatives and NaN (maxps returns its second operand) become 0.
    const std::string m = s.dst + "_m", big = s.dst + "_big", vf = regType(f, bits);
    x.out.push_back(vf + " " + m + " = " + call(p + "max_ps", {call(p + "round_ps", {a, imm}), p + "setzero_ps()"}) + ";");
    x.out.push_back(vf + " " + big + " = " + call(p + "cmp_ps", {m, p + "set1_ps(2147483648.0f)", "_CMP_GE_OQ"}) + ";");
    // Lanes >= 2^31 convert m - 2^31 and get the top bit back; lanes >= 2^32 saturate to all ones.
    const std::string low = call(p + "sub_ps", {m, call(p + "and_ps", {big, p + "set1_ps(2147483648.0f)"})});
    const std::string top = call(p + "slli_epi32", {castTo(big, f, bits, "si"), "31"});
    const std::string over = castTo(call(p + "cmp_ps", {m, p + "set1_ps(4294967296.0f)", "_CMP_GE_OQ"}), f, bits, "si");
    return x.assign(call(p + "or_" + si(bits), {call(p + "xor_" + si(bits), {call(p + "cvttps_epi32", {low}), top}), over}));
  } else if (k && s.saturateTo) {  // a float to an integer, clamped to a narrower one's range
    // max(lo, x) returns x when x is NaN (vmaxps/vminps return their second operand), so NaN
    // reaches the conversion, which gives the integer indefinite 0x80..0: its low bits are 0.
    const std::string fs = fsfx(f), suffix = f == DType::f32 ? "f" : "";
    const int nb = bitsOf(*s.saturateTo);
    const bool sgn = isSigned(*s.saturateTo);
    const std::string lo = sgn ? "-" + std::to_string(uint64_t{1} << (nb - 1)) + ".0" + suffix : "0.0" + suffix;
    const std::string hi = std::to_string(sgn ? (uint64_t{1} << (nb - 1)) - 1 : (uint64_t{1} << nb) - 1) + ".0" + suffix;
    const std::string clamped = s.dst + "_c";
    x.cx.instructions.insert("float to 8/16-bit integers: clamped as floats, one conversion, vpmov narrowing");
    x.out.push_back(regType(f, bits) + " " + clamped + " = " +
                    call(p + "min_" + fs, {splatExpr(f, bits, hi), call(p + "max_" + fs, {splatExpr(f, bits, lo), a})}) + ";");
    const std::string to = isFloat(f) && bitsOf(f) == 64 ? "epi64" : "epi32";
    if (bits == 512 && mode != ConvMode::trunc) {  // the rounding embedded in the conversion
      const char* rounding = mode == ConvMode::nearest ? "_MM_FROUND_TO_NEAREST_INT" : mode == ConvMode::floor ? "_MM_FROUND_TO_NEG_INF" : "_MM_FROUND_TO_POS_INF";
      return x.assign(call(p + "cvt_round" + fs + "_" + to, {clamped, std::string(rounding) + " | _MM_FROUND_NO_EXC"}));
    }
    const char* imm = mode == ConvMode::nearest ? "0x08" : mode == ConvMode::floor ? "0x09" : "0x0A";
    return x.assign(call(p + "cvtt" + fs + "_" + to, {mode == ConvMode::trunc ? clamped : call(p + "roundscale_" + fs, {clamped, imm})}));
  } else if (k || (eb == 32 && isSigned(t))) {  // a float to an integer
    const std::string fs = fsfx(f);
    const char* imm = mode == ConvMode::nearest ? "0x08" : mode == ConvMode::floor ? "0x09" : "0x0A";
    const std::string r = mode == ConvMode::trunc ? a : call(k ? p + "roundscale_" + fs : p + "round_" + fs, {a, imm});
    const std::string rn = s.dst + "_r";
    x.out.push_back(regType(f, bits) + " " + rn + " = " + r + ";");
    if (!isSigned(t)) return x.assign(call(p + "cvtt" + fs + "_epu" + std::to_string(eb), {call(p + "max_" + fs, {rn, splatExpr(f, bits, "0")})}));
    const std::string lim = std::string(eb == 32 ? "2147483648.0" : "9223372036854775808.0") + (f == DType::f32 ? "f" : "");
    const std::string cvt = call(p + "cvtt" + fs + "_" + epi(t), {rn});
    const std::string max = splatExpr(t, bits, eb == 32 ? "2147483647" : "9223372036854775807ll");
    if (k) {  // out of range: INT_MIN from cvtt, then INT_MAX above and 0 for NaN
      const std::string over = call(p + "cmp_" + fs + "_mask", {rn, splatExpr(f, bits, lim), "_CMP_GE_OQ"});
      const std::string ord = call(p + "cmp_" + fs + "_mask", {a, a, "_CMP_ORD_Q"});
      return x.assign(call(p + "maskz_mov_" + epi(t), {ord, call(p + "mask_mov_" + epi(t), {cvt, over, max})}));
    }
    // AVX2: cvtt gives 0x80000000 out of range; xor with the >= 2^31 lanes makes it 0x7FFFFFFF.
    const std::string over = castTo(call(p + "cmp_ps", {rn, splatExpr(f, bits, lim), "_CMP_GE_OQ"}), f, bits, "si");
    const std::string ord = castTo(call(p + "cmp_ps", {a, a, "_CMP_ORD_Q"}), f, bits, "si");
    return x.assign(call(p + "and_" + si(bits), {call(p + "xor_" + si(bits), {cvt, over}), ord}));
  }
  // Lane by lane through memory.
  const int lanes = s.type.lanes;
  const std::string buf = s.dst + "_lanes_in", res = s.dst + "_lanes_out";  // (convertLines names dst_in, dst_r, ...)
  x.out.push_back(std::string(cTypeOf(f)) + " " + buf + "[" + std::to_string(lanes) + "];");
  x.out.push_back(storeStmt(f, from.bits(), buf, a));
  x.out.push_back(std::string(cTypeOf(t)) + " " + res + "[" + std::to_string(lanes) + "];");
  x.out.push_back("for (int l = 0; l < " + std::to_string(lanes) + "; ++l) {");
  for (const std::string& line : c::convertLines(res + "[l]", s.dst, buf + "[l]", f, t, ReduceOp::min, mode)) x.out.push_back(line);
  x.out.push_back("}");
  x.assign(loadExpr(t, bits, res));
}

class X86Lowering final : public IsaLowering {
 public:
  std::string typeName(VecType t, const LowerContext& cx) const override {
    if (t.lanes == 1) return scalarLowering().typeName(t, cx);
    if (t.predicate) return cx.target.maskRegisters ? maskType(t.lanes) : regType(DType::i32, t.bits() < 128 ? 128 : t.bits());
    return regType(t.elem, t.bits() < 128 ? 128 : t.bits());
  }

  void lower(OpWriter& w) const override {
    lowerStatement(w);
    for (const std::string& line : w.out)  // loads of 2, 4 or 8 bytes (loadExpr)
      for (const char* bits : {"16", "32", "64"})
        if (line.find(std::string("simdgen_load_low") + bits + "(") != std::string::npos) {
          w.cx.helpers.insert("in_register");  // before them: helpers are written in name order
          w.cx.helpers.insert(std::string("load_low") + bits);
        }
  }

  void lowerStatement(OpWriter& w) const {
    if (w.s.op == OpKind::Fence) return w.out.push_back("_mm_sfence();");
    if (isOneLaneOp(w)) return scalarLowering().lower(w);
    X86Writer x{w};
    const Stmt& s = w.s;
    if (!s.pred.empty()) return lowerPredicated(x);
    switch (s.op) {
      case OpKind::Splat: return x.splat();
      case OpKind::Load: return x.load();
      case OpKind::LoadBroadcast: return x.assign(splatExpr(s.type.elem, s.type.bits(), x.src() + "[" + s.index.str() + "]"));
      case OpKind::GatherRows: return x.gatherRows();
      case OpKind::ScatterRows: return x.scatterRows();
      case OpKind::LoadHalves: return x.loadHalves();
      case OpKind::Extend: return x.extend();
      case OpKind::Binary: return s.type.predicate ? predicateLogic(w) : x.binary();
      case OpKind::Not: return predicateLogic(w);
      case OpKind::Fma: return fma(x, w.decl());
      case OpKind::DotBf16: {  // GCC 12 and clang take the pairs as __m512bh: a cast of the same bits
        if (!w.cx.target.has("bf16")) throw std::logic_error("dot_bf16 needs the bf16 feature (target avx512+bf16)");
        const int bits = s.type.bits();
        w.cx.instructions.insert("vdpbf16ps bf16 pair dot products");
        const std::string bh = "(__m" + std::to_string(bits) + "bh)";
        return x.assign(call(pfx(bits) + "dpbf16_ps", {s.args[0], bh + s.args[1], bh + s.args[2]}));
      }
      case OpKind::DotBf16Odd:  // Arm bfdot: only neon+bf16, sve+bf16 and sve2+bf16 plans use it
      case OpKind::DotI8I8:  // NEON sdot/udot: only neon+dotprod plans use them
      case OpKind::DotU8U8:
        break;
      case OpKind::DotI16I16: {  // two exact i16 products per i32 lane, added (wrapping)
        const bool zmm = s.type.bits() == 512;
        const std::string p = pfx(s.type.bits());
        // VNNI fuses the pair's products and the add (the same sum modulo 2^32).
        if (w.cx.target.vnniAt(s.type.bits())) {
          w.cx.instructions.insert("vpdpwssd i16 pair dot products");
          return x.assign(call(p + (zmm ? "dpwssd_epi32" : "dpwssd_avx_epi32"), {s.args[0], s.args[1], s.args[2]}));
        }
        w.cx.instructions.insert("vpmaddwd i16 pair dot products");  // AVX2, AVX-512BW
        return x.assign(call(p + "add_epi32", {s.args[0], call(p + "madd_epi16", {s.args[1], s.args[2]})}));
      }
      case OpKind::DotU8I8: {  // vpdpbusd: u8 x s8 quads into i32 lanes (wrapping)
        const bool zmm = s.type.bits() == 512;
        if (!w.cx.target.vnniAt(s.type.bits()))
          throw std::logic_error("dot_u8i8 needs the vnni feature (targets avx512+vnni, avx2+avx_vnni)");
        w.cx.instructions.insert("vpdpbusd u8 x s8 quad dot products");
        return x.assign(call(pfx(s.type.bits()) + (zmm ? "dpbusd_epi32" : "dpbusd_avx_epi32"), {s.args[0], s.args[1], s.args[2]}));
      }
      case OpKind::Sub: return x.assign(subExpr(s.type.elem, s.type.bits(), s.args[0], s.args[1]));
      case OpKind::Abs: return x.assign(absExpr(s.type.elem, s.type.bits(), s.args[0], w.cx));
      case OpKind::Popcount: return x.assign(popcountExpr(s.type.elem, s.type.bits(), s.args[0], w.cx));
      case OpKind::Sqrt: return x.assign(call(pfx(s.type.bits()) + "sqrt_" + fsfx(s.type.elem), {s.args[0]}));
      case OpKind::ScaleB:  // AVX-512 (VL below 512 bits) only: builders ask Target::scaleB()
        if (!w.cx.target.maskRegisters) throw std::logic_error("scale_b needs AVX-512 (vscalefps)");
        return x.assign(call(pfx(s.type.bits()) + "scalef_" + fsfx(s.type.elem), {s.args[0], s.args[1]}));
      case OpKind::GetExp:  // AVX-512 only, as ScaleB
        if (!w.cx.target.maskRegisters) throw std::logic_error("get_exp needs AVX-512 (vgetexpps)");
        return x.assign(call(pfx(s.type.bits()) + "getexp_" + fsfx(s.type.elem), {s.args[0]}));
      case OpKind::GetMant:
        if (!w.cx.target.maskRegisters) throw std::logic_error("get_mant needs AVX-512 (vgetmantps)");
        return x.assign(call(pfx(s.type.bits()) + "getmant_" + fsfx(s.type.elem), {s.args[0], "_MM_MANT_NORM_1_2", "_MM_MANT_SIGN_zero"}));
      case OpKind::Round: return x.assign(roundExpr(s.type.elem, s.type.bits(), s.args[0], s.conv));
      case OpKind::AddSat:
      case OpKind::SubSat:
        return addSubSat(s.op == OpKind::AddSat, s.type.elem, s.type.bits(), s.args[0], s.args[1], s.dst, w.decl(), w.out, w.cx);
      case OpKind::AvgRound: return x.assign(avgRoundExpr(s.type.elem, s.type.bits(), s.args[0], s.args[1], w.cx));
      case OpKind::AbsDiff: return x.assign(absDiffExpr(s.type.elem, s.type.bits(), s.args[0], s.args[1], w.cx));
      case OpKind::ShiftLeft:
      case OpKind::ShiftRight:
        return x.assign(shiftExpr(s.op == OpKind::ShiftLeft, s.type.elem, s.type.bits(), s.args[0], s.part, w.cx));
      case OpKind::Neg: return x.assign(negExpr(s.type.elem, s.type.bits(), s.args[0]));
      case OpKind::Div: return x.assign(call(pfx(s.type.bits()) + "div_" + fsfx(s.type.elem), {s.args[0], s.args[1]}));
      case OpKind::Select:
        return x.assign(blend(s.type.elem, s.type.bits(), predicate(s.args[0], w.cx), s.args[2], s.args[1], w.cx));
      case OpKind::Compare: {
        const VecType v = w.typeOf(s.args[0]);
        return x.assign(compareExpr(s.cmp, v.elem, v.bits(), s.args[0], s.args[1], w.cx));
      }
      case OpKind::WhileLt: return whileLt(w);
      case OpKind::DotAccumulate: return x.dotAccumulate();
      case OpKind::ReduceLanes: return x.reduceLanes();
      case OpKind::ReduceRows: return x.reduceRows();
      case OpKind::Shuffle:
        return x.assign(shuffleCall(s.shuffle, s.type, s.args[0], s.args.size() > 1 ? s.args[1] : s.args[0]));
      case OpKind::Store: return x.store();
      case OpKind::NaNMask: return x.nanMask();
      case OpKind::LocateEqual: return x.locateEqual();
      case OpKind::Convert: return convert(x);
      case OpKind::Bitcast: {
        const VecType in = w.typeOf(s.args[0]);
        const int bits = in.bits() < 128 ? 128 : in.bits();
        return x.assign(castTo(s.args[0], in.elem, bits, isFloat(s.type.elem) ? fsfx(s.type.elem) : "si"));
      }
      case OpKind::LocateNaN:
      case OpKind::SetIndex:
      case OpKind::Fence:
        break;
    }
    throw std::logic_error("no x86 lowering for vector " + std::string(ir::nameOf(s.op)) + " on " + ir::toString(s.type));
  }

  bool inlinesPredicate(const Stmt& def, const LowerContext& cx) const override { return x86::inlinesPredicate(def, cx); }
  std::string predicateDeclaration(const Stmt& def, LowerContext& cx) const override { return x86::predicateDeclaration(def, cx); }

  std::string archGuard() const override { return "defined(__x86_64__)"; }
  std::string dispatchInit() const override { return "__builtin_cpu_init();"; }
  std::string preamble() const override {
    return "#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13\n"
           "// GCC 12's AVX-512 headers self-initialise _mm512_undefined_*() values, which -Wmaybe-uninitialized\n"
           "// reports inside every kernel that inlines them (GCC bug 105593, fixed in GCC 13).\n"
           "#pragma GCC diagnostic ignored \"-Wmaybe-uninitialized\"\n"
           "#pragma GCC diagnostic ignored \"-Wuninitialized\"\n"
           "#endif\n"
           "#include <immintrin.h>";
  }
  std::string fileHelper(const std::string& name) const override {
    if (name == "lanes_below")
      return "// Bit l set for lanes l < n, for n clamped to [0, lanes]: the predicate of a partial vector.\n"
             "static inline uint64_t simdgen_lanes_below(int64_t n, int lanes) {\n"
             "  if (n <= 0) return 0;\n"
             "  if (n >= lanes) return lanes == 64 ? ~0ull : (1ull << lanes) - 1;\n"
             "  return (1ull << n) - 1;\n"
             "}";
    if (name == "in_register")
      return "// v, hidden from GCC's optimiser by an empty asm. GCC 12 folds a load of 2, 4 or 8 bytes\n"
             "// into a masked vpmovzx/vpmovsx with a memory operand that it then cannot emit (an internal\n"
             "// compiler error, \"could not split insn\"), e.g. bytes widened to i32 lanes under a k-mask.\n"
             "static inline __m128i simdgen_in_register(__m128i v) {\n"
             "#if defined(__GNUC__) && !defined(__clang__)\n"
             "  __asm__(\"\" : \"+x\"(v));\n"
             "#endif\n"
             "  return v;\n"
             "}";
    if (name == "load_low64")
      return "// The low 8 bytes at p in an XMM register, zeros above (kept from GCC 12's folding).\n"
             "static inline __m128i simdgen_load_low64(const void* p) { return simdgen_in_register(_mm_loadl_epi64((const __m128i*)p)); }";
    if (name == "load_low32")
      return "// The low 4 bytes at p in an XMM register, zeros above (kept from GCC 12's folding).\n"
             "static inline __m128i simdgen_load_low32(const void* p) { return simdgen_in_register(_mm_loadu_si32(p)); }";
    if (name == "load_low16")
      return "// The low 2 bytes at p in an XMM register, zeros above (kept from GCC 12's folding).\n"
             "static inline __m128i simdgen_load_low16(const void* p) { return simdgen_in_register(_mm_loadu_si16(p)); }";
    if (name == "load_prefix16_avx2")
      return "// The first `bytes` bytes at p (0..16), zeros above: fixed-size loads by the bits of `bytes`\n"
             "// (AVX2 has no byte masked load). Nothing past p + bytes is read, no libc call is made, and\n"
             "// the vector never goes through memory.\n"
             "__attribute__((target(\"avx2\"))) static inline __m128i simdgen_load_prefix16(const uint8_t* p, int64_t bytes) {\n"
             "  if (bytes >= 16) return _mm_loadu_si128((const __m128i*)p);\n"
             + prefixLoadPieces() +
             "  return bytes & 8 ? _mm_set_epi64x((long long)rest, (long long)lo) : _mm_cvtsi64_si128((long long)rest);\n"
             "}";
    if (name == "load_prefix_avx2")  // (after load_prefix16_avx2, which it calls: helpers come in name order)
      return "// The first `bytes` bytes at p (0..32), zeros above, as simdgen_load_prefix16.\n"
             "__attribute__((target(\"avx2\"))) static inline __m256i simdgen_load_prefix32(const void* p, int64_t bytes) {\n"
             "  const uint8_t* b = (const uint8_t*)p;\n"
             "  if (bytes < 16) return _mm256_zextsi128_si256(simdgen_load_prefix16(b, bytes));\n"
             "  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i*)b)),\n"
             "                                 simdgen_load_prefix16(b + 16, bytes - 16), 1);\n"
             "}";
    if (name == "store_prefix16_avx2")
      return "// Stores the first `bytes` bytes of v at p (0..16): fixed-size stores by the bits of `bytes`\n"
             "// (AVX2 has no byte masked store); nothing past p + bytes is written.\n"
             "__attribute__((target(\"avx2\"))) static inline void simdgen_store_prefix16(uint8_t* p, __m128i v, int64_t bytes) {\n"
             "  if (bytes >= 16) return _mm_storeu_si128((__m128i*)p, v);\n"
             "  uint64_t rest = (uint64_t)_mm_cvtsi128_si64(v);\n"
             + prefixStorePieces("(uint64_t)_mm_extract_epi64(v, 1)") +
             "}";
    if (name == "store_prefix_avx2")  // (after store_prefix16_avx2)
      return "// Stores the first `bytes` bytes of v at p (0..32), as simdgen_store_prefix16.\n"
             "__attribute__((target(\"avx2\"))) static inline void simdgen_store_prefix32(void* p, __m256i v, int64_t bytes) {\n"
             "  uint8_t* b = (uint8_t*)p;\n"
             "  if (bytes < 16) return simdgen_store_prefix16(b, _mm256_castsi256_si128(v), bytes);\n"
             "  _mm_storeu_si128((__m128i*)b, _mm256_castsi256_si128(v));\n"
             "  simdgen_store_prefix16(b + 16, _mm256_extracti128_si256(v, 1), bytes - 16);\n"
             "}";
    if (name == "store_words_avx2")
      return "// Stores the first `bytes` bytes of v at p, a multiple of 4 in 0..32: 16, 8 and 4-byte stores by\n"
             "// the bits of `bytes`, from the vector registers; nothing past p + bytes is written.\n"
             "__attribute__((target(\"avx2\"))) static inline void simdgen_store_words32(void* p, __m256i v, int64_t bytes) {\n"
             "  uint8_t* b = (uint8_t*)p;\n"
             "  if (bytes >= 32) return _mm256_storeu_si256((__m256i*)b, v);\n"
             "  __m128i x = _mm256_castsi256_si128(v);\n"
             "  if (bytes & 16) _mm_storeu_si128((__m128i*)b, x), x = _mm256_extracti128_si256(v, 1), b += 16;\n"
             "  if (bytes & 8) _mm_storel_epi64((__m128i*)b, x), x = _mm_unpackhi_epi64(x, x), b += 8;\n"
             "  if (bytes & 4) _mm_storeu_si32(b, x);\n"
             "}";
    if (name == "tail_keep")
      return "// 32 zero bytes then 32 0xFF bytes: the 32 bytes at offset k keep the last k bytes of a vector.\n"
             "static const uint8_t simdgen_tail_keep[64] = {\n"
             "    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,\n"
             "    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,\n"
             "    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,\n"
             "    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};";
    return IsaLowering::fileHelper(name);
  }

 private:
  // Predicated ops: loads and stores touch active lanes only; arithmetic blends its result with
  // args[0] (merging) or zero; reductions fold the identity in inactive lanes.
  void lowerPredicated(X86Writer& x) const {
    const Stmt& s = x.s;
    const DType t = s.type.elem;
    const int bits = s.type.bits();
    switch (s.op) {
      case OpKind::Load: return maskedLoad(x.w);
      case OpKind::Store: return maskedStore(x.w);
      case OpKind::GatherRows: return x.gatherRows();
      case OpKind::ScatterRows: return x.scatterRows();
      case OpKind::Binary:
      case OpKind::Fma: {
        const std::string full = s.dst + "_all";
        if (s.op == OpKind::Fma) {
          fma(x, typeName(s.type, x.cx) + " " + full);
        } else {
          x.out.push_back(typeName(s.type, x.cx) + " " + full + " = " + binaryExpr(s.rop, t, bits, s.args[0], s.args[1], x.cx) + ";");
        }
        const std::string other = s.zeroing ? splatExpr(t, bits, "0") : s.args[0];
        return x.assign(blend(t, bits, predicate(s.pred, x.cx), other, full, x.cx));
      }
      case OpKind::ReduceLanes: {
        const VecType v = x.typeOf(s.args[0]);
        const std::string active = x.cx.local(s, "_active");
        x.out.push_back(typeName(v, x.cx) + " " + active + " = " +
                        blend(v.elem, v.bits(), predicate(s.pred, x.cx), splatExpr(v.elem, v.bits(), identityLiteral(s.rop, v.elem)), s.args[0], x.cx) + ";");
        x.cx.types[active] = v;
        Stmt plain = s;
        plain.pred.clear();
        plain.args[0] = active;
        OpWriter inner{plain, x.cx, x.w.isa, {}};
        X86Writer(inner).reduceLanes();
        x.out.insert(x.out.end(), inner.out.begin(), inner.out.end());
        return;
      }
      default: break;
    }
    throw std::logic_error("no x86 lowering for predicated " + std::string(ir::nameOf(s.op)));
  }
};

}  // namespace

const IsaLowering& x86Lowering() {
  static const X86Lowering module;
  return module;
}

}  // namespace simdgen::emit
