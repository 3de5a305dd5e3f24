// SPDX-License-Identifier: Apache-2.0
#include "plan/math/math_ops.h"

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "spec/float_literal.h"

namespace simdgen::math {

using ir::OpKind;
using ir::VecType;

MathOps::MathOps(VecType floatType, Constant constant, std::string prefix, bool fused, ir::Block& out)
    : f_(floatType), i_{integerOf(DType::i8, bitsOf(floatType.elem)), floatType.lanes, floatType.scalable, false},
      constant_(std::move(constant)), prefix_(std::move(prefix)), fused_(fused), out_(out) {}

std::string MathOps::c(double value) {
  // Written by value: a constant that is not exact in the dtype is a bug in an algorithm.
  if (isF32() && double(float(value)) != value && !std::isnan(value)) throw std::logic_error("math constant not exact in f32");
  return constant_(cFloatLiteral(value, f_.elem), f_.data());
}
std::string MathOps::ci(int64_t value) {
  // Spelt as the expression language spells integer literals (spec/map_expr.cpp: cLiteral).
  if (isF32()) return constant_(std::to_string(value), i_);
  return constant_(value == INT64_MIN ? "(-9223372036854775807ll - 1)" : std::to_string(value) + "ll", i_);
}
std::string MathOps::bitsConstant(uint64_t bits) {
  return asFloat(ci(isF32() ? int64_t(int32_t(uint32_t(bits))) : std::bit_cast<int64_t>(bits)));
}

std::string MathOps::emit(ir::Stmt s) {
  s.dst = prefix_ + std::to_string(temps_++);
  s.declare = true;
  out_.push_back(std::move(s));
  return out_.back().dst;
}
std::string MathOps::op(OpKind k, VecType t, std::vector<std::string> args) { return emit(ir::op(k, "", t, std::move(args))); }
std::string MathOps::binary(ReduceOp rop, VecType t, const std::string& a, const std::string& b) {
  ir::Stmt s = ir::op(OpKind::Binary, "", t, {a, b});
  s.rop = rop;
  return emit(std::move(s));
}

std::string MathOps::add(const std::string& a, const std::string& b) { return binary(ReduceOp::add, f_, a, b); }
std::string MathOps::sub(const std::string& a, const std::string& b) { return op(OpKind::Sub, f_, {a, b}); }
std::string MathOps::mul(const std::string& a, const std::string& b) { return binary(ReduceOp::mul, f_, a, b); }
std::string MathOps::div(const std::string& a, const std::string& b) { return op(OpKind::Div, f_, {a, b}); }
std::string MathOps::fma(const std::string& a, const std::string& b, const std::string& c) {
  if (!fused_) return add(mul(a, b), c);
  return op(OpKind::Fma, f_, {c, a, b});  // the IR's accumulator comes first
}
std::string MathOps::min(const std::string& a, const std::string& b) { return binary(ReduceOp::min, f_, a, b); }
std::string MathOps::max(const std::string& a, const std::string& b) { return binary(ReduceOp::max, f_, a, b); }
std::string MathOps::sqrt(const std::string& a) { return op(OpKind::Sqrt, f_, {a}); }
std::string MathOps::nearest(const std::string& a) {
  ir::Stmt s = ir::op(OpKind::Round, "", f_, {a});
  s.conv = ConvMode::nearest;
  return emit(std::move(s));
}
std::string MathOps::scaleB(const std::string& a, const std::string& n) {
  if (!exponentOps_) throw std::logic_error("MathOps::scaleB on a target without it");
  return op(OpKind::ScaleB, f_, {a, n});
}
std::string MathOps::getExp(const std::string& a) {
  if (!exponentOps_) throw std::logic_error("MathOps::getExp on a target without it");
  return op(OpKind::GetExp, f_, {a});
}
std::string MathOps::getMant(const std::string& a) {
  if (!exponentOps_) throw std::logic_error("MathOps::getMant on a target without it");
  return op(OpKind::GetMant, f_, {a});
}
std::string MathOps::abs(const std::string& a) { return op(OpKind::Abs, f_, {a}); }
std::string MathOps::neg(const std::string& a) { return op(OpKind::Neg, f_, {a}); }

std::string MathOps::asInt(const std::string& a) { return op(OpKind::Bitcast, i_, {a}); }
std::string MathOps::asFloat(const std::string& a) { return op(OpKind::Bitcast, f_, {a}); }
std::string MathOps::iadd(const std::string& a, const std::string& b) { return binary(ReduceOp::add, i_, a, b); }
std::string MathOps::isub(const std::string& a, const std::string& b) { return op(OpKind::Sub, i_, {a, b}); }
std::string MathOps::iand(const std::string& a, const std::string& b) { return binary(ReduceOp::bit_and, i_, a, b); }
std::string MathOps::ior(const std::string& a, const std::string& b) { return binary(ReduceOp::bit_or, i_, a, b); }
std::string MathOps::ixor(const std::string& a, const std::string& b) { return binary(ReduceOp::bit_xor, i_, a, b); }
std::string MathOps::shl(const std::string& a, int count) {
  ir::Stmt s = ir::op(OpKind::ShiftLeft, "", i_, {a});
  s.part = count;
  return emit(std::move(s));
}
std::string MathOps::sar(const std::string& a, int count) {
  ir::Stmt s = ir::op(OpKind::ShiftRight, "", i_, {a});
  s.part = count;
  return emit(std::move(s));
}

std::string MathOps::less(const std::string& a, const std::string& b) {
  ir::Stmt s = ir::op(OpKind::Compare, "", f_.mask(), {a, b});
  s.cmp = ir::Cmp::lt;
  return emit(std::move(s));
}
std::string MathOps::equal(const std::string& a, const std::string& b) {
  ir::Stmt s = ir::op(OpKind::Compare, "", f_.mask(), {a, b});
  s.cmp = ir::Cmp::eq;
  return emit(std::move(s));
}
std::string MathOps::select(const std::string& p, const std::string& a, const std::string& b) {
  return op(OpKind::Select, f_, {p, a, b});
}

std::string MathOps::horner(const std::string& x, std::span<const double> coefficients) {
  std::string acc = c(coefficients.back());
  for (size_t k = coefficients.size() - 1; k-- > 0;) acc = fma(acc, x, c(coefficients[k]));
  return acc;
}

}  // namespace simdgen::math
