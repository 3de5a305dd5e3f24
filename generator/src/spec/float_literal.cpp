// SPDX-License-Identifier: Apache-2.0
#include "spec/float_literal.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace simdgen {

std::optional<double> roundDecimal(std::string_view decimal, DType t) {
  if (!isFloat(t)) throw std::logic_error("roundDecimal: " + std::string(nameOf(t)) + " is not a float dtype");
  // strtof/strtod round correctly (glibc, any decimal length); they also read "inf", "nan", hex
  // and leading blanks, which the callers' grammars never pass: checked here all the same.
  const bool ok = !decimal.empty() && decimal.find_first_not_of("+-.0123456789eE") == std::string_view::npos &&
                  decimal.find_first_of("0123456789") != std::string_view::npos;
  if (!ok) throw std::logic_error("roundDecimal: '" + std::string(decimal) + "' is not a decimal number");
  const std::string text(decimal);
  char* end = nullptr;
  errno = 0;  // ERANGE on overflow (±HUGE_VAL: infinity) and on underflow (a subnormal or zero): told apart by the value
  const double value = t == DType::f32 ? double(std::strtof(text.c_str(), &end)) : std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size())  // a locale whose decimal point is not '.' (simdgen never sets one)
    throw std::logic_error("roundDecimal: strtod read " + std::to_string(end - text.c_str()) + " of the characters of '" + text + "'");
  if (std::isinf(value)) return std::nullopt;
  return value;
}

std::string cFloatLiteral(double value, DType t) {
  if (!isFloat(t) || !std::isfinite(value)) throw std::logic_error("cFloatLiteral: not a finite float value");
  char buf[64];
  const std::to_chars_result r = t == DType::f32 ? std::to_chars(buf, buf + sizeof buf, float(value)) : std::to_chars(buf, buf + sizeof buf, value);
  std::string s(buf, r.ptr);
  if (const std::size_t e = s.find('e'); e != std::string::npos) {
    // "1e+15" -> "1e15", "1e-05" -> "1e-5"
    std::string exponent = s.substr(e + 1);
    const bool negative = exponent[0] == '-';
    if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    s = s.substr(0, e + 1) + (negative ? "-" : "") + exponent;
  } else if (s.find('.') == std::string::npos) {
    s += ".0";  // "2" -> "2.0", "-0" -> "-0.0"
  }
  return t == DType::f32 ? s + "f" : s;
}

std::string_view largestFiniteText(DType t) { return t == DType::f32 ? "3.40282347e+38" : "1.7976931348623157e+308"; }

}  // namespace simdgen
