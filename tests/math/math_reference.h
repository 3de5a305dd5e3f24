// SPDX-License-Identifier: Apache-2.0
// The math functions' references (docs/math.md), from the C library in the type given (double for
// f32 results, long double for f64 ones), written from their definitions, not from the generator:
// sigmoid(x) = 1 / (1 + e^-x), gelu(x) = x/2 erfc(-x / sqrt2), gelu_tanh(x) = x / (1 + e^(-2u)) with
// u = sqrt(2/pi) (x + 0.044715 x^3) (the same as x/2 (1 + tanh(u)), without its cancellation); the
// gelus' limit at -inf is -0. Returns NaN for an unknown name.
#pragma once

#include <cmath>
#include <limits>
#include <string>

namespace simdgen_math_test {

template <class R>
R math_reference(const std::string& fn, R x) {
  using std::cos, std::sin, std::erf, std::erfc, std::exp, std::exp2, std::expm1, std::log, std::log2, std::log1p, std::sqrt, std::tanh, std::acos;
  if (fn == "exp") return exp(x);
  if (fn == "exp2") return exp2(x);
  if (fn == "expm1") return expm1(x);
  if (fn == "log") return log(x);
  if (fn == "log2") return log2(x);
  if (fn == "log1p") return log1p(x);
  if (fn == "recip") return 1 / x;
  if (fn == "rsqrt") return 1 / sqrt(x);
  if (fn == "sin") return sin(x);
  if (fn == "cos") return cos(x);
  if (fn == "sigmoid") return 1 / (1 + exp(-x));
  if (fn == "tanh") return tanh(x);
  if (fn == "erf") return erf(x);
  if ((fn == "gelu" || fn == "gelu_tanh") && std::isinf(x) && x < 0) return -R(0);
  if (fn == "gelu") return R(0.5) * x * erfc(-x / sqrt(R(2)));
  if (fn == "gelu_tanh") return x / (1 + exp(-2 * sqrt(2 / acos(R(-1))) * (x + R(0.044715) * x * x * x)));
  return std::numeric_limits<R>::quiet_NaN();
}

}  // namespace simdgen_math_test
