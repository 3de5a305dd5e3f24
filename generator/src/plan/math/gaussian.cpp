// SPDX-License-Identifier: Apache-2.0
// erf, gelu (the erf form, x * Phi(x)) and gelu_tanh (PyTorch's tanh approximation), for f32
// results computed in f64 (functions.cpp, workingType): polynomials with a relative error near
// 1e-10, far below an f32 ULP, so the result rounded once is within 1 ULP in either tier. As in
// exp_log.cpp, no MathOps call takes two operands that emit ops.
#include <cmath>

#include "plan/math/coefficients.h"
#include "plan/math/elementary.h"

namespace simdgen::math {

namespace {

// erf(a) for 0 <= a < 1 (a * P(a^2)) and erfc(a) for a >= 1 (e^-a^2 * Q(1/a) / a), a >= 0; the
// argument of the second is clamped to [1, 27] (erfc(27) is below every f64) so that the branch
// not taken divides by nothing small.
struct ErfParts {
  std::string small, large;  // erf(a) where a < 1, erfc(a) where a >= 1
  std::string isSmall;       // a < 1 (false for NaN)
};
ErfParts erfParts(MathOps& o, const std::string& a) {
  ErfParts p;
  const std::string one = o.c(1.0);
  p.isSmall = o.less(a, one);
  p.small = o.mul(a, o.horner(o.mul(a, a), coefficients::kErfSmallF64Ulp4));
  const std::string capped = o.min(o.c(27.0), a);
  const std::string y = o.max(one, capped);
  const std::string t = o.div(one, y);
  const std::string gauss = expOf(o, o.neg(o.mul(y, y)), 4);
  const std::string q = o.horner(t, coefficients::kErfcLargeF64Ulp4);
  p.large = o.mul(o.mul(gauss, t), q);
  return p;
}

std::string copySign(MathOps& o, const std::string& magnitude, const std::string& x) {
  const std::string xBits = o.asInt(x);
  const std::string sign = o.iand(xBits, o.ci(INT64_MIN));
  return o.asFloat(o.ior(o.asInt(magnitude), sign));
}

// y, but -0 where x = -inf (the gelus' limit there, where y would be -inf * 0 = NaN).
std::string minusZeroAtMinusInfinity(MathOps& o, const std::string& x, const std::string& y) {
  const std::string minusInf = o.neg(o.bitsConstant(0x7ff0000000000000));
  const std::string atMinusInf = o.equal(x, minusInf);
  return o.select(atMinusInf, o.c(-0.0), y);
}

}  // namespace

// erf(x) = sign(x) erf(|x|): erf(+-0) = +-0, erf(+-inf) = +-1, NaN gives NaN.
std::string erfOf(MathOps& o, const std::string& x) {
  const std::string a = o.abs(x);
  const ErfParts p = erfParts(o, o.min(o.c(6.0), a));  // NaN kept (min's second operand)
  const std::string fromErfc = o.sub(o.c(1.0), p.large);
  return copySign(o, o.select(p.isSmall, p.small, fromErfc), x);
}

// gelu(x) = x/2 * (1 + erf(x / sqrt2)) = x/2 * erfc(-x / sqrt2): for x < 0 the erfc of |x| / sqrt2
// (no cancellation), so small negative results keep their precision and underflow gradually.
// gelu(-inf) = -0, gelu(+inf) = +inf, NaN gives NaN.
std::string geluOf(MathOps& o, const std::string& x) {
  const std::string a = o.abs(o.mul(x, o.c(M_SQRT1_2)));
  const ErfParts p = erfParts(o, a);
  const std::string one = o.c(1.0);
  const std::string erfA = o.select(p.isSmall, p.small, o.sub(one, p.large));
  const std::string erfcA = o.select(p.isSmall, o.sub(one, p.small), p.large);
  const std::string negative = o.less(x, o.c(0.0));
  const std::string twicePhi = o.select(negative, erfcA, o.add(one, erfA));
  const std::string y = o.mul(o.mul(x, o.c(0.5)), twicePhi);
  return minusZeroAtMinusInfinity(o, x, y);
}

// gelu_tanh(x) = x/2 * (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as the identical
// x * sigmoid(2u), which does not cancel for x < 0. gelu_tanh(-inf) = -0, (+inf) = +inf.
std::string geluTanhOf(MathOps& o, const std::string& x) {
  const std::string cube = o.mul(o.mul(x, x), x);
  const std::string inner = o.fma(cube, o.c(0.044715), x);
  const std::string twoU = o.mul(inner, o.c(2 * std::sqrt(2 / M_PI)));
  const std::string y = o.mul(x, sigmoidOf(o, twoU, 4));
  return minusZeroAtMinusInfinity(o, x, y);
}

}  // namespace simdgen::math
