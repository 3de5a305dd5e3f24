// SPDX-License-Identifier: Apache-2.0
#include "emit/x86_spelling.h"

#include "emit/c_scalar.h"

namespace simdgen::emit::x86 {

using c::call;
using c::isZeroLiteral;

std::string pfx(int bits) { return bits == 512 ? "_mm512_" : bits == 256 ? "_mm256_" : "_mm_"; }
// A vector narrower than 128 bits (a fractional vector: the low lanes of an XMM register) is spelled
// as its register, except where it meets memory (loadExpr, storeStmt).
std::string si(int bits) { return "si" + std::to_string(bits < 128 ? 128 : bits); }
std::string regType(DType t, int bits) {
  const std::string w = bits <= 128 ? "__m128" : "__m" + std::to_string(bits);
  return w + (t == DType::f32 ? "" : t == DType::f64 ? "d" : "i");
}
std::string epi(DType t) { return "epi" + std::to_string(bitsOf(t)); }
std::string fsfx(DType t) { return t == DType::f32 ? "ps" : "pd"; }
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
  if (bits < 128) {  // the low bytes of an XMM register, zeros above
    // Through the file helpers "load_low16/32/64" (x86_lowering.cpp): GCC must not fold these loads.
    return call("simdgen_load_low" + std::to_string(bits), {"(const void*)(" + ptr + ")"});
  }
  if (isFloat(t)) return call(p + "loadu_" + fsfx(t), {ptr});
  if (bits == 512) return call("_mm512_loadu_si512", {"(const void*)(" + ptr + ")"});
  return call(p + "loadu_" + si(bits), {"(const " + regType(t, bits) + "*)(" + ptr + ")"});
}

std::string storeStmt(DType t, int bits, const std::string& ptr, const std::string& v) {
  const std::string p = pfx(bits);
  if (bits < 128) {
    const char* fn = bits == 64 ? "_mm_storel_epi64" : bits == 32 ? "_mm_storeu_si32" : "_mm_storeu_si16";
    return call(fn, {std::string(bits == 64 ? "(__m128i*)(" : "(void*)(") + ptr + ")", v}) + ";";
  }
  if (isFloat(t)) return call(p + "storeu_" + fsfx(t), {ptr, v}) + ";";
  if (bits == 512) return call("_mm512_storeu_si512", {"(void*)(" + ptr + ")", v}) + ";";
  return call(p + "storeu_" + si(bits), {"(" + regType(t, bits) + "*)(" + ptr + ")", v}) + ";";
}

std::string streamStmt(DType t, int bits, const std::string& ptr, const std::string& v) {
  if (bits < 128) throw std::logic_error("no streaming store of " + std::to_string(bits) + " bits");
  const std::string p = pfx(bits);
  if (isFloat(t)) return call(p + "stream_" + fsfx(t), {ptr, v}) + ";";
  return call(p + "stream_" + si(bits), {"(" + regType(t, bits) + "*)(" + ptr + ")", v}) + ";";
}

bool kmasks(const LowerContext& cx) { return cx.target.maskRegisters; }

std::string domain(DType t) { return isFloat(t) ? fsfx(t) : epi(t); }

std::string castTo(const std::string& x, DType t, int bits, const std::string& to) {
  const std::string from = isFloat(t) ? fsfx(t) : "si";
  if (from == to) return x;
  const std::string p = pfx(bits);
  if (from == "si") return call(p + "castsi" + std::to_string(bits) + "_" + to, {x});
  if (to == "si") return call(p + "cast" + from + "_si" + std::to_string(bits), {x});
  return call(p + "cast" + from + "_" + to, {x});
}

std::string iota(DType t, int lanes) {
  std::string v;
  for (int l = 0; l < lanes; ++l) v += (l ? ", " : "") + std::to_string(l);
  const int w = bitsOf(t);
  return "_mm256_setr_epi" + std::to_string(w) + (w == 64 ? "x(" : "(") + v + ")";
}

std::string avx2Splat(int w, const std::string& v) {
  static const char* casts[] = {"(char)", "(short)", "(int)", "(long long)"};
  const int k = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3;
  return "_mm256_set1_epi" + std::to_string(w) + (w == 64 ? "x(" : "(") + casts[k] + "(" + v + "))";
}

std::string avx2MaskPtr(DType t) {
  return t == DType::f32 ? "(const float*)" : t == DType::f64 ? "(const double*)" : bitsOf(t) == 32 ? "(const int*)" : "(const long long*)";
}

std::string maskType(int lanes) { return "__mmask" + std::to_string(lanes < 8 ? 8 : lanes); }

std::string blend(DType t, int bits, const std::string& p, const std::string& no, const std::string& yes, LowerContext& cx) {
  if (kmasks(cx)) return call(pfx(bits) + "mask_blend_" + domain(t), {p, no, yes});
  if (isFloat(t)) return call(pfx(bits) + "blendv_" + fsfx(t), {no, yes, castTo(p, DType::i32, bits, fsfx(t))});
  return call(pfx(bits) + "blendv_epi8", {no, yes, p});
}

}  // namespace simdgen::emit::x86
