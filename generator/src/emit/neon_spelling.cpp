// SPDX-License-Identifier: Apache-2.0
#include "emit/neon_spelling.h"

#include "emit/c_scalar.h"

namespace simdgen::emit::neon {

using c::call;

std::string sfx(DType t) {
  std::string s(isFloat(t) ? "f" : isSigned(t) ? "s" : "u");
  return s.append(std::to_string(bitsOf(t)));  // not "f" + ...: GCC 12 -Wrestrict false positive (PR105329)
}
std::string usfx(DType t) { return "u" + std::to_string(bitsOf(t)); }

std::string vecType(DType t, int lanes) {
  const std::string base = isFloat(t) ? "float" : isSigned(t) ? "int" : "uint";
  return base + std::to_string(bitsOf(t)) + "x" + std::to_string(lanes) + "_t";
}
std::string maskType(DType t) { return "uint" + std::to_string(bitsOf(t)) + "x" + std::to_string(128 / bitsOf(t)) + "_t"; }
std::string ucount(DType t) { return "uint" + std::to_string(bitsOf(t)) + "_t"; }

std::string splat(DType t, const std::string& lit) { return call("vdupq_n_" + sfx(t), {lit}); }
std::string load(DType t, const std::string& ptr) { return call("vld1q_" + sfx(t), {ptr}); }
std::string store(DType t, const std::string& ptr, const std::string& v) { return call("vst1q_" + sfx(t), {ptr, v}) + ";"; }

std::string reinterpret(const std::string& x, DType from, DType to) {
  if (sfx(from) == sfx(to)) return x;
  return call("vreinterpretq_" + sfx(to) + "_" + sfx(from), {x});
}

std::string select(DType t, const std::string& mask, const std::string& yes, const std::string& no) {
  return call("vbslq_" + sfx(t), {mask, yes, no});
}

std::string notMask(DType t, const std::string& m) {
  if (bitsOf(t) < 64) return call("vmvnq_" + usfx(t), {m});
  return call("vreinterpretq_u64_u32", {call("vmvnq_u32", {call("vreinterpretq_u32_u64", {m})})});
}

std::string compare(ir::Cmp cmp, DType t, const std::string& a, const std::string& b) {
  switch (cmp) {
    case ir::Cmp::lt: return call("vcltq_" + sfx(t), {a, b});
    case ir::Cmp::le: return call("vcleq_" + sfx(t), {a, b});
    case ir::Cmp::gt: return call("vcgtq_" + sfx(t), {a, b});
    case ir::Cmp::ge: return call("vcgeq_" + sfx(t), {a, b});
    case ir::Cmp::eq: return call("vceqq_" + sfx(t), {a, b});
    case ir::Cmp::ne: return notMask(t, call("vceqq_" + sfx(t), {a, b}));  // true for NaN, as in C
  }
  return "";
}

std::string binary(ReduceOp op, DType t, const std::string& a, const std::string& b, LowerContext& cx) {
  const std::string s = sfx(t);
  switch (op) {
    case ReduceOp::add: return call("vaddq_" + s, {a, b});
    case ReduceOp::bit_and: return call("vandq_" + s, {a, b});
    case ReduceOp::bit_or: return call("vorrq_" + s, {a, b});
    case ReduceOp::bit_xor: return call("veorq_" + s, {a, b});
    case ReduceOp::mul:
      if (bitsOf(t) < 64 || isFloat(t)) return call("vmulq_" + s, {a, b});
      // No 64-bit integer multiply in NEON: two scalar multiplies (the low bits are the same
      // for signed and unsigned lanes).
      cx.helpers.insert("mul_u64x2");
      cx.instructions.insert("64-bit multiply lane by lane (NEON has no 64-bit integer multiply)");
      return reinterpret(call("simdgen_mul_u64x2", {reinterpret(a, t, DType::u64), reinterpret(b, t, DType::u64)}), DType::u64, t);
    case ReduceOp::min:
    case ReduceOp::max:
      // smin/umin exist up to 32 bits. Floats select through a compare so that ties and NaN keep
      // b exactly as the plan defines (fminnm would pick -0.0 over +0.0, and fmin propagates NaN).
      if (!isFloat(t) && bitsOf(t) < 64) return call((op == ReduceOp::min ? "vminq_" : "vmaxq_") + s, {a, b});
      return select(t, compare(op == ReduceOp::min ? ir::Cmp::lt : ir::Cmp::gt, t, a, b), a, b);
  }
  return "";
}

std::string iota(DType t, LowerContext& cx) {
  cx.helpers.insert("iota_" + usfx(t));
  return call("vld1q_" + usfx(t), {"simdgen_iota_" + usfx(t)});
}

}  // namespace simdgen::emit::neon
