#include "emit/lowering.h"

#include <algorithm>
#include <stdexcept>

namespace simdgen::emit {

using ir::OpKind;
using ir::Stmt;
using ir::VecType;

void LowerContext::hoist(const std::string& line) {
  if (std::find(prelude.begin(), prelude.end(), line) == prelude.end()) prelude.push_back(line);
}

namespace {

// ---- naming ---------------------------------------------------------------------------------

std::string pfx(int bits) { return bits == 512 ? "_mm512_" : bits == 256 ? "_mm256_" : "_mm_"; }
std::string si(int bits) { return "si" + std::to_string(bits); }
std::string regType(DType t, int bits) {
  const std::string w = bits == 128 ? "__m128" : "__m" + std::to_string(bits);
  return w + (t == DType::f32 ? "" : t == DType::f64 ? "d" : "i");
}
std::string epi(DType t) { return "epi" + std::to_string(bitsOf(t)); }
std::string fsfx(DType t) { return t == DType::f32 ? "ps" : "pd"; }
std::string ctype(DType t) { return std::string(cTypeOf(t)); }
std::string call(const std::string& f, std::initializer_list<std::string> args) {
  std::string s = f + "(";
  bool first = true;
  for (const auto& a : args) {
    s += (first ? "" : ", ") + a;
    first = false;
  }
  return s + ")";
}

bool isZeroLiteral(const std::string& lit) {
  return lit == "0" || lit == "0u" || lit == "0ull" || lit == "0.0f" || lit == "0.0";
}

std::string splatExpr(DType t, int bits, const std::string& lit) {
  const std::string p = pfx(bits);
  if (isFloat(t)) return isZeroLiteral(lit) ? p + "setzero_" + fsfx(t) + "()" : call(p + "set1_" + fsfx(t), {lit});
  if (isZeroLiteral(lit)) return p + "setzero_" + si(bits) + "()";
  switch (bitsOf(t)) {
    case 8: return call(p + "set1_epi8", {"(char)(" + lit + ")"});
    case 16: return call(p + "set1_epi16", {"(short)(" + lit + ")"});
    case 32: return call(p + "set1_epi32", {"(int)(" + lit + ")"});
    default: return call(p + (bits == 512 ? "set1_epi64" : "set1_epi64x"), {"(long long)(" + lit + ")"});
  }
}

std::string loadExpr(DType t, int bits, const std::string& ptr) {
  const std::string p = pfx(bits);
  if (isFloat(t)) return call(p + "loadu_" + fsfx(t), {ptr});
  if (bits == 512) return call("_mm512_loadu_si512", {"(const void*)(" + ptr + ")"});
  return call(p + "loadu_" + si(bits), {"(const " + regType(t, bits) + "*)(" + ptr + ")"});
}

std::string storeStmt(DType t, int bits, const std::string& ptr, const std::string& v) {
  const std::string p = pfx(bits);
  if (isFloat(t)) return call(p + "storeu_" + fsfx(t), {ptr, v}) + ";";
  if (bits == 512) return call("_mm512_storeu_si512", {"(void*)(" + ptr + ")", v}) + ";";
  return call(p + "storeu_" + si(bits), {"(" + regType(t, bits) + "*)(" + ptr + ")", v}) + ";";
}

// One-lane signed integer add/mul values are carried in the unsigned type of the same width:
// the bits are identical (two's complement), wrap-around is defined, and GCC 12's loop vectorizer
// miscompiles reductions whose signed accumulators round-trip through unsigned casts.
bool carriedUnsigned(DType t, ReduceOp rop) {
  return !isFloat(t) && isSigned(t) && (rop == ReduceOp::add || rop == ReduceOp::mul);
}
std::string carrier(DType t, ReduceOp rop) {
  if (!carriedUnsigned(t, rop)) return ctype(t);
  return "uint" + std::to_string(bitsOf(t)) + "_t";
}
// Converts one-lane value x of type `from` to `to`, through their C types (sign extension and
// truncation happen in the real types, the carriers only hold bits).
std::string scalarConvert(const std::string& x, DType from, DType to, ReduceOp rop) {
  std::string v = carriedUnsigned(from, rop) ? "(" + ctype(from) + ")" + x : x;
  v = "(" + ctype(to) + ")" + v;
  return carriedUnsigned(to, rop) ? "(" + carrier(to, rop) + ")" + v : v;
}

// ---- arithmetic ----------------------------------------------------------------------------

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
      std::string ga = a, gb = b;
      if (!isSigned(t)) {
        const std::string bias = call(p + "set1_epi64x", {"(long long)0x8000000000000000ull"});
        ga = call(p + "xor_" + si(bits), {a, bias});
        gb = call(p + "xor_" + si(bits), {b, bias});
      }
      const std::string gt = call(p + "cmpgt_epi64", {ga, gb});
      return op == ReduceOp::min ? call(p + "blendv_epi8", {a, b, gt}) : call(p + "blendv_epi8", {b, a, gt});
    }
  }
  return "";
}

// One-lane arithmetic in plain C. Integer add/mul go through an unsigned type of at least 32
// bits: wrap-around is then defined behaviour and matches the vector lanes.
std::string scalarBinaryExpr(ReduceOp op, DType t, const std::string& a, const std::string& b) {
  const std::string ct = carrier(t, op);
  if (op == ReduceOp::min) return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
  if (op == ReduceOp::max) return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
  if (isFloat(t)) return "(" + a + (op == ReduceOp::add ? " + " : " * ") + b + ")";
  if (isBitwise(op)) {
    const char* sym = op == ReduceOp::bit_and ? " & " : op == ReduceOp::bit_or ? " | " : " ^ ";
    return "(" + ct + ")(" + a + sym + b + ")";
  }
  const char* sym = op == ReduceOp::add ? " + " : " * ";
  // 32/64-bit carriers are unsigned and do not promote: plain arithmetic wraps as intended.
  if (bitsOf(t) >= 32 && ct[0] == 'u') return "(" + a + sym + b + ")";
  const std::string ut = bitsOf(t) == 64 ? "uint64_t" : "uint32_t";
  return "(" + ct + ")((" + ut + ")" + a + (op == ReduceOp::add ? " + " : " * ") + "(" + ut + ")" + b + ")";
}

// ---- masks ---------------------------------------------------------------------------------

std::string maskType(int lanes) { return "__mmask" + std::to_string(lanes < 8 ? 8 : lanes); }
std::string laneMask(int lanes, const std::string& count, LowerContext& cx) {
  cx.usesLaneMask = true;
  return "(" + maskType(lanes) + ")simdgen_lanes_below(" + count + ", " + std::to_string(lanes) + ")";
}
// AVX2: a vector whose lanes l < count are all ones (32/64-bit lanes only).
std::string avx2ActiveLanes(DType t, const std::string& count) {
  if (bitsOf(t) == 32)
    return "_mm256_cmpgt_epi32(_mm256_set1_epi32((int)(" + count + ")), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))";
  return "_mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(" + count + ")), _mm256_setr_epi64x(0, 1, 2, 3))";
}
std::string avx2MaskPtr(DType t) {
  return t == DType::f32 ? "(const float*)" : t == DType::f64 ? "(const double*)" : bitsOf(t) == 32 ? "(const int*)" : "(const long long*)";
}

// ---- op lowerings --------------------------------------------------------------------------

struct Lowerer {
  const Stmt& s;
  LowerContext& cx;
  std::vector<std::string> out;

  std::string in(const ir::Index& idx) const { return "input + " + idx.str(); }
  std::string outp(const ir::Index& idx) const { return "output + " + idx.str(); }
  std::string declType() const { return s.type.lanes == 1 ? carrier(s.type.elem, cx.plan.rop) : cppType(s.type); }
  std::string decl() const { return s.declare ? declType() + " " + s.dst : s.dst; }
  std::string scalarType() const { return carrier(s.type.elem, cx.plan.rop); }
  // A value of the real C type, cast to the carrier when the carrier differs.
  std::string carry(const std::string& v) const {
    return carriedUnsigned(s.type.elem, cx.plan.rop) ? "(" + scalarType() + ")" + v : v;
  }
  void assign(const std::string& expr) { out.push_back(decl() + " = " + expr + ";"); }
  VecType typeOf(const std::string& v) const { return cx.types.at(v); }

  void splat() {
    if (s.type.lanes == 1) return assign(carry("(" + ctype(s.type.elem) + ")(" + s.literal + ")"));
    assign(splatExpr(s.type.elem, s.type.bits(), s.literal));
  }

  void load() {
    if (s.type.lanes == 1) return assign(carry("input[" + s.index.str() + "]"));
    assign(loadExpr(s.type.elem, s.type.bits(), in(s.index)));
  }

  void loadPartial() {
    const DType t = s.type.elem;
    const int bits = s.type.bits(), lanes = s.type.lanes;
    const std::string fill = splatExpr(t, bits, s.literal), n = s.count.str();
    if (cx.target.maskRegisters) {
      cx.instructions.insert("masked loads (AVX-512 k-registers) for the tail");
      const std::string f = isFloat(t) ? fsfx(t) : epi(t);
      return assign(call(pfx(bits) + "mask_loadu_" + f, {fill, laneMask(lanes, n, cx), in(s.index)}));
    }
    if (bitsOf(t) >= 32) {
      cx.instructions.insert("vpmaskmov/vmaskmov masked loads for 32/64-bit tails");
      const std::string active = s.dst + "_active";
      out.push_back("const __m256i " + active + " = " + avx2ActiveLanes(t, n) + ";");
      const std::string ptr = avx2MaskPtr(t) + "(" + in(s.index) + ")";
      if (isFloat(t)) {
        const std::string f = fsfx(t);
        return assign(call("_mm256_blendv_" + f,
                           {fill, call("_mm256_maskload_" + f, {ptr, active}), call("_mm256_castsi256_" + f, {active})}));
      }
      return assign(call("_mm256_blendv_epi8", {fill, call("_mm256_maskload_" + epi(t), {ptr, active}), active}));
    }
    // AVX2 has no 8/16-bit masked load: stage the tail in an identity-filled buffer.
    cx.instructions.insert("8/16-bit tails staged through a stack buffer (no AVX2 byte masked load)");
    const std::string stage = s.dst + "_stage";
    out.push_back("alignas(32) " + ctype(t) + " " + stage + "[" + std::to_string(lanes) + "];");
    out.push_back("_mm256_store_si256((__m256i*)" + stage + ", " + fill + ");");
    out.push_back("__builtin_memcpy(" + stage + ", " + in(s.index) + ", (size_t)(" + n + ") * sizeof(" + ctype(t) + "));");
    assign("_mm256_load_si256((const __m256i*)" + stage + ")");
  }

  // AVX2, 8/16-bit: the row's last whole vector; a sliding window over a 0x00/0xFF table keeps
  // only its last `count` lanes (the others were counted by the main loop).
  void loadRowEnd() {
    const DType t = s.type.elem;
    const int lanes = s.type.lanes;
    const std::string n = s.count.str(), bytes = std::to_string(bytesOf(t));
    cx.usesTailKeepTable = true;
    cx.instructions.insert("8/16-bit tails: the row's last whole vector, blended with the identity (no AVX2 byte masks)");
    const std::string keep = s.dst + "_keep";
    out.push_back("const __m256i " + keep + " = _mm256_loadu_si256((const __m256i*)(simdgen_tail_keep + (" + n + ") * " +
                  bytes + "));");
    const std::string last = in(s.index) + " + (" + n + ") - " + std::to_string(lanes);
    assign(call("_mm256_blendv_epi8", {splatExpr(t, 256, s.literal), loadExpr(t, 256, last), keep}));
  }

  void nanMask() {
    const VecType src = typeOf(s.args[0]);
    const std::string x = s.args[0], ct = ctype(s.type.elem);
    if (src.lanes == 1) return assign("(" + ct + ")-(" + ct + ")(" + x + " != " + x + ")");
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
    const DType t = cx.plan.input;
    const std::string want = s.args[0], lo = s.lo.str(), hi = s.hi.str(), row = s.index.str(), c = s.dst + "_c";
    const bool last = s.part == 1;
    out.push_back(decl() + " = -1;");
    out.push_back("{");
    const int lanes = cx.target.lanes(t);
    std::string scalarFrom = lo;
    if (lanes > 1) {
      cx.instructions.insert(std::string("block rescan: compare-to-mask and ") + (last ? "lzcnt" : "tzcnt") + " for the lane");
      const std::string L = std::to_string(lanes), wantV = s.dst + "_want", bits = cx.target.vectorBits == 512 ? "512" : "256";
      out.push_back("const " + regType(t, cx.target.vectorBits) + " " + wantV + " = " +
                    (isFloat(t) ? call(pfx(cx.target.vectorBits) + "set1_" + fsfx(t), {want})
                                : splatExpr(t, cx.target.vectorBits, want)) + ";");
      const auto [mask, per] = equalMask(t, loadExpr(t, cx.target.vectorBits, "input + " + row + " + " + c + (last ? " - " + L : "")), wantV);
      const std::string lane = last ? "(63 - __builtin_clzll(hit)) / " + std::to_string(per) : "__builtin_ctzll(hit) / " + std::to_string(per);
      if (!last) {
        out.push_back("int64_t " + c + " = " + lo + ";");
        out.push_back("for (; " + c + " + " + L + " <= " + hi + "; " + c + " += " + L + ") {");
        out.push_back("const uint64_t hit = " + mask + ";");
        out.push_back("if (hit) { " + s.dst + " = " + c + " + " + lane + "; break; }");
      } else {
        out.push_back("int64_t " + c + " = " + hi + ";");
        out.push_back("for (; " + c + " - " + L + " >= " + lo + "; " + c + " -= " + L + ") {");
        out.push_back("const uint64_t hit = " + mask + ";");
        out.push_back("if (hit) { " + s.dst + " = " + c + " - " + L + " + " + lane + "; break; }");
      }
      out.push_back("}");
      scalarFrom = c;
    }
    const std::string cond = "input[" + row + " + k] == " + want;
    if (!last) {
      out.push_back("if (" + s.dst + " < 0) {");
      out.push_back("for (int64_t k = " + scalarFrom + "; k < " + hi + "; ++k) if (" + cond + ") { " + s.dst + " = k; break; }");
    } else {
      out.push_back("if (" + s.dst + " < 0) {");
      out.push_back("for (int64_t k = " + (lanes > 1 ? c : hi) + " - 1; k >= " + lo + "; --k) if (" + cond + ") { " + s.dst + " = k; break; }");
    }
    out.push_back("}");
    out.push_back("}");
  }

  void locateNaN() {
    const std::string x = "input[" + s.index.str() + " + k]";
    out.push_back(decl() + " = -1;");
    out.push_back("for (int64_t k = " + s.lo.str() + "; k < " + s.hi.str() + "; ++k) if (" + x + " != " + x + ") { " + s.dst +
                  " = k; break; }");
  }

  void gatherRows() {
    const DType t = s.type.elem, src = cx.plan.input;
    const int lanes = s.type.lanes, bits = s.type.bits();
    const std::string stride = cx.plan.rowStride;
    const std::string n = s.count.terms.empty() ? "" : s.count.str();
    if (lanes == 1) return assign(carry("(" + ctype(t) + ")input[" + s.index.str() + "]"));
    const bool hw = bitsOf(t) == bitsOf(src) && bitsOf(t) >= 32;
    if (!hw) {
      // No byte/word gather exists on x86: fill the lanes from the rows through a small stack tile.
      cx.instructions.insert("8/16-bit or widening columns filled lane by lane through a stack tile (x86 has no byte gather)");
      const std::string stage = s.dst + "_stage";
      out.push_back("alignas(64) " + ctype(t) + " " + stage + "[" + std::to_string(lanes) + "];");
      const std::string limit = n.empty() ? std::to_string(lanes) : n;
      out.push_back("for (int64_t r = 0; r < " + std::to_string(lanes) + "; ++r) " + stage + "[r] = r < " + limit +
                    " ? (" + ctype(t) + ")input[" + s.index.str() + " + r * " + stride + "] : (" + ctype(t) + ")(" +
                    (s.literal.empty() ? "0" : s.literal) + ");");
      return assign(loadExpr(t, bits, stage));
    }
    cx.instructions.insert("vpgatherdd/vpgatherdq column gathers (lane = row)");
    const int scale = bitsOf(t) / 8;
    const int idxBits = lanes * 32;  // 32-bit row offsets, one per lane
    const std::string idxType = idxBits == 128 ? "__m128i" : "__m" + std::to_string(idxBits) + "i";
    std::string iota;
    for (int r = 0; r < lanes; ++r) iota += (r ? ", " : "") + std::to_string(r);
    cx.hoist("// Row offsets for the column gathers: lane r reads row r (stride checked above).");
    cx.hoist("const " + idxType + " row_offsets = " + pfx(idxBits) + "mullo_epi32(" + pfx(idxBits) + "setr_epi32(" + iota +
             "), " + pfx(idxBits) + "set1_epi32((int)" + stride + "));");
    cx.scalarFallbackCall = "if (" + stride + " > 2147483647 / " + std::to_string(lanes) + ")";
    const std::string f = isFloat(t) ? fsfx(t) : epi(t);
    const std::string base = "(const " + std::string(isFloat(t) ? ctype(t) : bitsOf(t) == 32 ? "int" : "long long") +
                             "*)(" + in(s.index) + ")";
    const std::string p = pfx(bits);
    if (n.empty()) {
      if (cx.target.maskRegisters) return assign(call(p + "i32gather_" + f, {"row_offsets", "(const void*)(" + in(s.index) + ")", std::to_string(scale)}));
      return assign(call(p + "i32gather_" + f, {base, "row_offsets", std::to_string(scale)}));
    }
    const std::string fill = splatExpr(t, bits, s.literal);
    if (cx.target.maskRegisters)
      return assign(call(p + "mask_i32gather_" + f,
                         {fill, laneMask(lanes, n, cx), "row_offsets", "(const void*)(" + in(s.index) + ")", std::to_string(scale)}));
    std::string active = avx2ActiveLanes(t, n);
    if (isFloat(t)) active = call("_mm256_castsi256_" + f, {active});
    assign(call(p + "mask_i32gather_" + f, {fill, base, "row_offsets", active, std::to_string(scale)}));
  }

  void extend() {
    const VecType src = typeOf(s.args[0]);
    const DType from = src.elem, to = s.type.elem;
    const int bits = s.type.bits();
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

  void convert() {
    if (s.type.lanes != 1) throw std::logic_error("vector convert is not produced by the builders");
    assign(scalarConvert(s.args[0], typeOf(s.args[0]).elem, s.type.elem, cx.plan.rop));
  }

  void binary() {
    if (s.type.lanes == 1) return assign(scalarBinaryExpr(s.rop, s.type.elem, s.args[0], s.args[1]));
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
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const bool f = isFloat(t);
    std::string cur = s.args[0];
    int bits = v.bits();
    const std::string tmp = s.dst + "_v";
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
  void reduceRows() {
    const DType t = s.type.elem;
    const int bits = s.type.bits(), eb = bitsOf(t);
    const std::string p = pfx(bits);
    const bool f = isFloat(t);
    cx.instructions.insert("fold network for the final reductions of several rows (vshufi32x4/vperm2i128, vunpck, vshufps)");
    auto asPs = [&](const std::string& v) { return f ? (t == DType::f32 ? v : p + "castpd_ps(" + v + ")") : p + "castsi" + std::to_string(bits) + "_ps(" + v + ")"; };
    auto fromPs = [&](const std::string& v) { return f ? (t == DType::f32 ? v : p + "castps_pd(" + v + ")") : p + "castps_si" + std::to_string(bits) + "(" + v + ")"; };
    auto asPd = [&](const std::string& v) { return f ? (t == DType::f64 ? v : p + "castps_pd(" + v + ")") : p + "castsi" + std::to_string(bits) + "_pd(" + v + ")"; };
    auto fromPd = [&](const std::string& v) { return f ? (t == DType::f64 ? v : p + "castpd_ps(" + v + ")") : p + "castpd_si" + std::to_string(bits) + "(" + v + ")"; };
    auto pick = [&](int blockBits, const std::string& a, const std::string& b, bool upper) -> std::string {
      if (blockBits == bits) {
        if (bits == 512) {
          const std::string fn = f ? (t == DType::f32 ? "_mm512_shuffle_f32x4" : "_mm512_shuffle_f64x2") : "_mm512_shuffle_i32x4";
          return call(fn, {a, b, upper ? "0xEE" : "0x44"});
        }
        const std::string fn = f ? "_mm256_permute2f128_" + fsfx(t) : "_mm256_permute2x128_si256";
        return call(fn, {a, b, upper ? "0x31" : "0x20"});
      }
      if (blockBits == 256) {
        const std::string fn = f ? (t == DType::f32 ? "_mm512_shuffle_f32x4" : "_mm512_shuffle_f64x2") : "_mm512_shuffle_i32x4";
        return call(fn, {a, b, upper ? "0xDD" : "0x88"});
      }
      if (blockBits == 128) {
        if (!f) return call(p + (upper ? "unpackhi_epi64" : "unpacklo_epi64"), {a, b});
        return fromPd(call(p + (upper ? "unpackhi_pd" : "unpacklo_pd"), {asPd(a), asPd(b)}));
      }
      return fromPs(call(p + "shuffle_ps", {asPs(a), asPs(b), upper ? "0xDD" : "0x88"}));
    };
    std::vector<std::string> vecs = s.args;
    int stage = 0;
    for (int block : s.network.blockLanes) {
      std::vector<std::string> next;
      for (size_t m = 0; m + 1 < vecs.size(); m += 2) {
        const std::string name = vecs.size() == 2 ? s.dst : "fold" + std::to_string(stage) + "_" + std::to_string(m / 2);
        const std::string lo = pick(block * eb, vecs[m], vecs[m + 1], false);
        const std::string hi = pick(block * eb, vecs[m], vecs[m + 1], true);
        out.push_back(cppType(s.type) + " " + name + " = " + binaryExpr(s.rop, t, bits, lo, hi, cx) + ";");
        next.push_back(name);
      }
      vecs = next;
      ++stage;
    }
  }

  void store() {
    const VecType v = typeOf(s.args[0]);
    const DType t = v.elem;
    const std::string x = s.args[0];
    const std::string array = s.var.empty() ? "output" : s.var;
    if (v.lanes == 1) {
      const std::string value = carriedUnsigned(t, cx.plan.rop) ? "(" + ctype(t) + ")" + x : x;
      return out.push_back(array + "[" + s.index.str() + "] = " + value + ";");
    }
    const int bits = v.bits();
    if (s.count.terms.empty()) return out.push_back(storeStmt(t, bits, outp(s.index), x));
    const std::string n = s.count.str();
    if (cx.target.maskRegisters) {
      const std::string f = isFloat(t) ? fsfx(t) : epi(t);
      return out.push_back(call(pfx(bits) + "mask_storeu_" + f, {outp(s.index), laneMask(v.lanes, n, cx), x}) + ";");
    }
    if (bitsOf(t) >= 32) {
      const std::string f = isFloat(t) ? fsfx(t) : epi(t);
      std::string ptr = avx2MaskPtr(t);
      ptr.erase(1, 6);  // drop "const "
      return out.push_back(call("_mm256_maskstore_" + f, {ptr + "(" + outp(s.index) + ")", avx2ActiveLanes(t, n), x}) + ";");
    }
    const std::string stage = x + "_stage";
    out.push_back("{");
    out.push_back("alignas(32) " + ctype(t) + " " + stage + "[" + std::to_string(v.lanes) + "];");
    out.push_back("_mm256_store_si256((__m256i*)" + stage + ", " + x + ");");
    out.push_back("const int64_t n = " + n + ";");
    out.push_back("if (n > 0) __builtin_memcpy(" + outp(s.index) + ", " + stage + ", (size_t)(n < " + std::to_string(v.lanes) +
                  " ? n : " + std::to_string(v.lanes) + ") * sizeof(" + ctype(t) + "));");
    out.push_back("}");
  }
};

}  // namespace

std::string cppType(VecType t) {
  if (t.lanes == 1) return ctype(t.elem);
  return regType(t.elem, t.bits() < 128 ? 128 : t.bits());
}

std::vector<std::string> lowerOp(const Stmt& s, LowerContext& cx) {
  Lowerer l{s, cx, {}};
  switch (s.op) {
    case OpKind::Splat: l.splat(); break;
    case OpKind::Load: l.load(); break;
    case OpKind::LoadPartial: l.loadPartial(); break;
    case OpKind::LoadRowEnd: l.loadRowEnd(); break;
    case OpKind::GatherRows: l.gatherRows(); break;
    case OpKind::Extend: l.extend(); break;
    case OpKind::Convert: l.convert(); break;
    case OpKind::Binary: l.binary(); break;
    case OpKind::DotAccumulate: l.dotAccumulate(); break;
    case OpKind::ReduceLanes: l.reduceLanes(); break;
    case OpKind::ReduceRows: l.reduceRows(); break;
    case OpKind::Store: l.store(); break;
    case OpKind::NaNMask: l.nanMask(); break;
    case OpKind::LocateEqual: l.locateEqual(); break;
    case OpKind::LocateNaN: l.locateNaN(); break;
    case OpKind::SetIndex: l.assign(s.index.str()); break;
  }
  if (s.op != OpKind::Store) cx.types[s.dst] = s.type;
  return l.out;
}

}  // namespace simdgen::emit
