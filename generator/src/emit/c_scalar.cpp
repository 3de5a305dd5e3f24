// SPDX-License-Identifier: Apache-2.0
#include "emit/c_scalar.h"

namespace simdgen::emit::c {

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

// The bits are identical (two's complement), wrap-around is defined, and GCC 12's loop vectorizer
// miscompiles reductions whose signed accumulators round-trip through unsigned casts.
bool carriedUnsigned(DType t, ReduceOp rop) {
  return !isFloat(t) && isSigned(t) && (rop == ReduceOp::add || rop == ReduceOp::mul);
}

std::string carrier(DType t, ReduceOp rop) {
  if (!carriedUnsigned(t, rop)) return ctype(t);
  return "uint" + std::to_string(bitsOf(t)) + "_t";
}

std::string carried(const std::string& x, DType t, ReduceOp rop) {
  return carriedUnsigned(t, rop) ? "(" + carrier(t, rop) + ")" + x : x;
}

std::string convert(const std::string& x, DType from, DType to, ReduceOp rop) {
  std::string v = carriedUnsigned(from, rop) ? "(" + ctype(from) + ")" + x : x;
  v = "(" + ctype(to) + ")" + v;
  return carriedUnsigned(to, rop) ? "(" + carrier(to, rop) + ")" + v : v;
}

std::string binary(ReduceOp op, DType t, const std::string& a, const std::string& b) {
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

std::string sub(DType t, const std::string& a, const std::string& b, ReduceOp rop) {
  if (isFloat(t)) return "(" + a + " - " + b + ")";
  const std::string ct = carrier(t, rop), ut = bitsOf(t) == 64 ? "uint64_t" : "uint32_t";
  if (bitsOf(t) >= 32 && ct[0] == 'u') return "(" + a + " - " + b + ")";
  return "(" + ct + ")((" + ut + ")" + a + " - (" + ut + ")" + b + ")";
}

std::string abs(DType t, const std::string& x, ReduceOp rop) {
  if (isFloat(t)) return call(t == DType::f32 ? "__builtin_fabsf" : "__builtin_fabs", {x});
  if (!isSigned(t)) return x;
  const std::string ct = carrier(t, rop), ut = bitsOf(t) == 64 ? "uint64_t" : "uint32_t";
  const std::string real = carriedUnsigned(t, rop) ? "(" + ctype(t) + ")" + x : x;
  // Negated in unsigned arithmetic, so |MIN| wraps to MIN instead of overflowing.
  return "(" + ct + ")(" + real + " < 0 ? (" + ut + ")0 - (" + ut + ")" + x + " : (" + ut + ")" + x + ")";
}

}  // namespace simdgen::emit::c
