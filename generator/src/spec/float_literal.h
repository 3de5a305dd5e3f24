// SPDX-License-Identifier: Apache-2.0
// Decimal numbers of a spec (in map expressions, arg_reduce's initial value, contraction
// epilogues) as f32 or f64 values, rounded exactly as C's strtof / strtod round them, and the C
// literal the generated code spells that value with.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/dtype.h"

namespace simdgen {

// The value of `decimal` (an optional '-', digits with an optional '.', an optional exponent:
// the text of a JSON number or of an expression's number) rounded to nearest-even in `t` (f32 or
// f64) as std::strtof / std::strtod do, returned widened to double (exact). A value that rounds to
// a subnormal or to zero is that value (C accepts it). nullopt: it rounds to infinity (overflow).
std::optional<double> roundDecimal(std::string_view decimal, DType t);

// The C literal of `value` (exactly representable in `t`): the shortest decimal that reads back
// as the same value (std::to_chars), its exponent without '+' or leading zeros, ".0" after an
// integer, and 'f' for f32: "0.5f", "3.4028235e38f", "1e-45f", "-0.0", "5e-324". It rounds to
// itself with every compiler and raises no warning (a subnormal is not written as its rounding).
std::string cFloatLiteral(double value, DType t);

// The largest finite value of `t` as C's <float.h> prints it (FLT_MAX, DBL_MAX), for messages:
// "3.40282347e+38", "1.7976931348623157e+308".
std::string_view largestFiniteText(DType t);

}  // namespace simdgen
