// SPDX-License-Identifier: Apache-2.0
#include "plan/math/functions.h"

#include <stdexcept>

#include "plan/math/elementary.h"

namespace simdgen::math {

DType workingType(MathFn fn, int maxUlp, DType t) {
  // sigmoid and tanh keep 1 ULP in f32 only when computed in f64 (4-ULP algorithms there are
  // far below an f32 ULP) and rounded once.
  if ((fn == MathFn::sigmoid || fn == MathFn::tanh) && maxUlp <= 1 && t == DType::f32) return DType::f64;
  // rsqrt's f32 1-ULP tier: 1 / sqrt(x) in f64, rounded once (correctly rounded: docs/math.md).
  if (fn == MathFn::rsqrt && maxUlp <= 1 && t == DType::f32) return DType::f64;
  // erf and the gelus exist in f64 arithmetic only, for f32 results (spec/map_expr.cpp refuses f64).
  if (fn == MathFn::erf || fn == MathFn::gelu || fn == MathFn::gelu_tanh) return DType::f64;
  // sin and cos likewise: their table-free reduction of any f32 needs f64's exact products.
  if (fn == MathFn::sin || fn == MathFn::cos) return DType::f64;
  return t;
}

std::string emitMathFn(MathFn fn, int maxUlp, DType t, const std::string& x, MathOps& ops) {
  // sin and cos exist in f64 arithmetic only, each tier with its own reduction for f32 results.
  if (fn == MathFn::sin) return sinOf(ops, x, maxUlp);
  if (fn == MathFn::cos) return cosOf(ops, x, maxUlp);
  // In a wider type, the 4-ULP form there is far within 1 ULP of t once rounded.
  if (workingType(fn, maxUlp, t) != t) maxUlp = 4;
  switch (fn) {
    case MathFn::exp: return expOf(ops, x, maxUlp);
    case MathFn::exp2: return exp2Of(ops, x, maxUlp);
    case MathFn::log: return logOf(ops, x, maxUlp, false);
    case MathFn::log2: return logOf(ops, x, maxUlp, true);
    case MathFn::expm1: return expm1Of(ops, x, maxUlp);
    case MathFn::log1p: return log1pOf(ops, x, maxUlp);
    case MathFn::recip: return recipOf(ops, x);
    case MathFn::rsqrt: return rsqrtOf(ops, x, maxUlp);
    case MathFn::sigmoid: return sigmoidOf(ops, x, maxUlp);
    case MathFn::tanh: return tanhOf(ops, x, maxUlp);
    case MathFn::erf: return erfOf(ops, x);
    case MathFn::gelu: return geluOf(ops, x);
    case MathFn::gelu_tanh: return geluTanhOf(ops, x);
    case MathFn::sin: case MathFn::cos: break;
  }
  throw std::logic_error("emitMathFn: unknown function");
}

std::string describeMathFn(MathFn fn, int maxUlp, DType t) {
  const DType w = workingType(fn, maxUlp, t);
  return std::string(nameOf(fn)) + " " + std::string(nameOf(t)) + ": within " + std::to_string(maxUlp) + " ULP" +
         (w != t ? " (computed in " + std::string(nameOf(w)) + ", rounded once)" : "") + ", no tables, C's special values (docs/math.md)";
}

}  // namespace simdgen::math
