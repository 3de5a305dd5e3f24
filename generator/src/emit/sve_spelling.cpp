// SPDX-License-Identifier: Apache-2.0
#include "emit/sve_spelling.h"

#include "emit/c_scalar.h"

namespace simdgen::emit::sve {

using c::call;

std::string sfx(DType t) {
  std::string s(isFloat(t) ? "f" : isSigned(t) ? "s" : "u");
  return s.append(std::to_string(bitsOf(t)));
}
std::string usfx(DType t) {
  std::string s("u");
  return s.append(std::to_string(bitsOf(t)));
}
std::string vecType(DType t) {
  std::string s(isFloat(t) ? "svfloat" : isSigned(t) ? "svint" : "svuint");
  return s.append(std::to_string(bitsOf(t))).append("_t");
}
std::string all(DType t) {
  std::string s("svptrue_b");
  return s.append(std::to_string(bitsOf(t))).append("()");
}
std::string count(DType t) {
  switch (bitsOf(t)) {
    case 8: return "svcntb()";
    case 16: return "svcnth()";
    case 32: return "svcntw()";
    default: return "svcntd()";
  }
}
std::string splat(DType t, const std::string& lit) { return call("svdup_n_" + sfx(t), {lit}); }

std::string reinterpret(const std::string& x, DType from, DType to) {
  if (sfx(from) == sfx(to)) return x;
  return call("svreinterpret_" + sfx(to) + "_" + sfx(from), {x});
}

std::string compare(ir::Cmp cmp, DType t, const std::string& pg, const std::string& a, const std::string& b) {
  const std::string s = sfx(t);
  switch (cmp) {
    case ir::Cmp::lt: return call("svcmplt_" + s, {pg, a, b});
    case ir::Cmp::le: return call("svcmple_" + s, {pg, a, b});
    case ir::Cmp::gt: return call("svcmpgt_" + s, {pg, a, b});
    case ir::Cmp::ge: return call("svcmpge_" + s, {pg, a, b});
    case ir::Cmp::eq: return call("svcmpeq_" + s, {pg, a, b});
    case ir::Cmp::ne:  // not equal, so true for NaN as in C
      return isFloat(t) ? call("svnot_b_z", {pg, call("svcmpeq_" + s, {pg, a, b})}) : call("svcmpne_" + s, {pg, a, b});
  }
  return "";
}

std::string binary(ReduceOp op, DType t, const std::string& pg, const std::string& a, const std::string& b, Form form) {
  const std::string suffix = form == Form::any ? "_x" : form == Form::merge ? "_m" : "_z";
  const bool selected = isFloat(t) && (op == ReduceOp::min || op == ReduceOp::max);
  if (selected) {
    const std::string full = call("svsel_" + sfx(t), {compare(op == ReduceOp::min ? ir::Cmp::lt : ir::Cmp::gt, t, all(t), a, b), a, b});
    if (form == Form::any) return full;
    return call("svsel_" + sfx(t), {pg, full, form == Form::merge ? a : splat(t, "0")});
  }
  std::string name;
  switch (op) {
    case ReduceOp::add: name = "svadd_"; break;
    case ReduceOp::mul: name = "svmul_"; break;
    case ReduceOp::min: name = "svmin_"; break;
    case ReduceOp::max: name = "svmax_"; break;
    case ReduceOp::bit_and: name = "svand_"; break;
    case ReduceOp::bit_or: name = "svorr_"; break;
    case ReduceOp::bit_xor: name = "sveor_"; break;
  }
  return call(name + sfx(t) + suffix, {pg, a, b});
}

}  // namespace simdgen::emit::sve
