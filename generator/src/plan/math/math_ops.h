// SPDX-License-Identifier: Apache-2.0
// The vocabulary the math functions (exp, log, ...) are written in: exact plan ops over a float
// type and its integer twin of the same width, each call appending one op and returning the
// variable that holds its value. One algorithm per function is written against this class, and
// every lowering module (and the interpreter) runs it through the ops it already has.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "ir/plan.h"

namespace simdgen::math {

class MathOps {
 public:
  // `constant` returns the variable of a splat of a literal (hoisted by the builder); `prefix`
  // names this function's temporaries; `fused`: the target multiplies and adds in one rounding
  // (fma() below is one op); otherwise fma() is a multiply and an add, each rounded.
  using Constant = std::function<std::string(const std::string& literal, ir::VecType type)>;
  MathOps(ir::VecType floatType, Constant constant, std::string prefix, bool fused, ir::Block& out);
  // The target has AVX-512's exponent instructions: it scales by powers of two in one (ir::OpKind::
  // ScaleB), and splits a float into its exponent and significand in two (GetExp, GetMant).
  void allowExponentOps(bool allowed) { exponentOps_ = allowed; }
  bool hasExponentOps() const { return exponentOps_; }

  DType dtype() const { return f_.elem; }
  bool isF32() const { return f_.elem == DType::f32; }
  int mantissaBits() const { return isF32() ? 23 : 52; }
  bool fused() const { return fused_; }

  std::string c(double value);       // a float constant (exactly representable in the dtype)
  std::string ci(int64_t value);     // an integer constant of the twin type
  std::string bitsConstant(uint64_t bits);  // the float whose bits these are (NaN, infinities)

  std::string add(const std::string& a, const std::string& b);
  std::string sub(const std::string& a, const std::string& b);
  std::string mul(const std::string& a, const std::string& b);
  std::string div(const std::string& a, const std::string& b);
  std::string fma(const std::string& a, const std::string& b, const std::string& c);  // a * b + c
  // min(a, b) = a < b ? a : b: b wins NaN (put the value that may be NaN second to keep it).
  std::string min(const std::string& a, const std::string& b);
  std::string max(const std::string& a, const std::string& b);
  std::string sqrt(const std::string& a);     // correctly rounded
  std::string nearest(const std::string& a);  // rounded to an integral float, ties to even
  std::string scaleB(const std::string& a, const std::string& n);  // a * 2^n rounded once (hasExponentOps())
  std::string getExp(const std::string& a);   // floor(log2 |a|) (hasExponentOps())
  std::string getMant(const std::string& a);  // |a| / 2^floor(log2 |a|) in [1, 2), finite nonzero a (hasExponentOps())
  std::string abs(const std::string& a);
  std::string neg(const std::string& a);

  std::string asInt(const std::string& a);    // the bits of a float
  std::string asFloat(const std::string& a);  // the float of integer bits
  std::string iadd(const std::string& a, const std::string& b);
  std::string isub(const std::string& a, const std::string& b);
  std::string iand(const std::string& a, const std::string& b);
  std::string ior(const std::string& a, const std::string& b);
  std::string ixor(const std::string& a, const std::string& b);
  std::string shl(const std::string& a, int count);
  std::string sar(const std::string& a, int count);  // arithmetic

  std::string less(const std::string& a, const std::string& b);  // a predicate over the float lanes
  std::string equal(const std::string& a, const std::string& b);
  std::string select(const std::string& p, const std::string& a, const std::string& b);  // p ? a : b

  // c[0] + x * (c[1] + x * (c[2] + ...)), coefficients lowest order first.
  std::string horner(const std::string& x, std::span<const double> coefficients);

 private:
  std::string emit(ir::Stmt s);
  std::string op(ir::OpKind k, ir::VecType t, std::vector<std::string> args);
  std::string binary(ReduceOp rop, ir::VecType t, const std::string& a, const std::string& b);

  ir::VecType f_, i_;
  Constant constant_;
  std::string prefix_;
  bool fused_;
  bool exponentOps_ = false;
  ir::Block& out_;
  int temps_ = 0;
};

}  // namespace simdgen::math
