// SPDX-License-Identifier: Apache-2.0
// The error of a float result against a reference computed in a wider type, in units in the last
// place (ULP) of the result's type at the reference: |y - ref| / ulp(ref), where ulp(ref) is the
// spacing of the result type's values at |ref| (2^-149 for f32 below the normal range). Special
// values must be exact: a NaN reference needs a NaN, an infinite or zero one (after rounding to
// the result type) the same value with the same sign, and an infinite result a reference that
// rounds to it (overflow at glibc's threshold). Written from C's <math.h> and IEEE 754, not from
// the generator.
#pragma once

#include <cmath>
#include <limits>

namespace simdgen_math_test {

inline constexpr double kWrong = std::numeric_limits<double>::infinity();

template <class T, class R>
double ulp_error(T y, R ref) {
  using L = std::numeric_limits<T>;
  if (std::isnan(ref)) return std::isnan(y) ? 0.0 : kWrong;
  if (std::isnan(y)) return kWrong;
  const T rounded = static_cast<T>(ref);
  if (std::isinf(rounded) || rounded == 0) {
    // An overflow or an underflow to zero: only the exact special value (sign included), or, for a
    // zero, a value within the bound measured below.
    if (std::isinf(rounded)) return y == rounded ? 0.0 : kWrong;
    if (y == 0) return std::signbit(y) == std::signbit(rounded) ? 0.0 : kWrong;
  }
  if (std::isinf(y)) return kWrong;
  const R mag = std::fabs(ref);
  const int exp = mag < R(L::min()) ? L::min_exponent - 1 : std::ilogb(mag);  // ilogb: the binary exponent
  const R ulp = std::ldexp(R(1), exp - (L::digits - 1));
  return double(std::fabs(R(y) - ref) / ulp);
}

}  // namespace simdgen_math_test
