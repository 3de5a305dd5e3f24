// SPDX-License-Identifier: Apache-2.0
// sigmoid (the logistic function) and tanh, in the dtype's own arithmetic. Their errors add those of
// exp, a sum and a division (at most about 2.5 ULP): the 4-ULP tier. The f32 1-ULP tier runs these
// in f64 and rounds once (functions.cpp, workingType). As in exp_log.cpp, no MathOps call takes
// two operands that emit ops (their order would be the compiler's).
#include <cstdint>

#include "plan/math/coefficients.h"
#include "plan/math/elementary.h"

namespace simdgen::math {

// sigmoid(x) = 1 / (1 + e^-x) for x >= 0 and e^x / (1 + e^x) below, both from E = e^-|x| <= 1, so
// that no large value is added to 1 and the result underflows gradually with e^x.
// sigmoid(NaN) = NaN, sigmoid(+inf) = 1, sigmoid(-inf) = +0, sigmoid(+-0) = 1/2.
std::string sigmoidOf(MathOps& o, const std::string& x, int maxUlp) {
  const std::string e = expOf(o, o.neg(o.abs(x)), maxUlp);
  const std::string negative = o.less(x, o.c(0.0));
  const std::string one = o.c(1.0);
  const std::string numerator = o.select(negative, e, one);
  return o.div(numerator, o.add(e, one));
}

// tanh(x) = x + x^3 T(x^2) for |x| < 0.5625 (coefficients.h), else sign(x) (1 - 2 / (e^2|x| + 1)),
// whose result is at least 0.51, so the subtraction loses nothing. tanh(+-0) = +-0, tanh(+-inf) =
// +-1, NaN gives NaN (it takes the second form, through exp).
std::string tanhOf(MathOps& o, const std::string& x, int maxUlp) {
  const std::string a = o.abs(x);
  const std::string z = o.mul(a, a);
  const std::string a3 = o.mul(a, z);
  const std::string t = o.horner(z, o.isF32() ? std::span<const double>(coefficients::kTanhF32Ulp4) : std::span<const double>(coefficients::kTanhF64Ulp4));
  const std::string small = o.fma(a3, t, a);
  const std::string e = expOf(o, o.add(a, a), maxUlp);
  const std::string one = o.c(1.0);
  const std::string denominator = o.add(e, one);
  const std::string quotient = o.div(o.c(2.0), denominator);
  const std::string large = o.sub(one, quotient);
  // tanh(|x|) >= +0 gets x's sign bit (copysign: tanh(-0) = -0).
  const std::string magnitude = o.select(o.less(a, o.c(0.5625)), small, large);
  return withSignOf(o, magnitude, x);
}

}  // namespace simdgen::math
