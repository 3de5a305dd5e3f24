// SPDX-License-Identifier: Apache-2.0
#include "core/dtype.h"

#include <limits>

namespace simdgen {

namespace {
struct DTypeInfo {
  DType type;
  int bits;
  bool isFloat;
  bool isSigned;
  std::string_view name;
  std::string_view cType;
};
constexpr DTypeInfo kInfo[] = {
    {DType::i8, 8, false, true, "i8", "int8_t"},        {DType::u8, 8, false, false, "u8", "uint8_t"},
    {DType::i16, 16, false, true, "i16", "int16_t"},    {DType::u16, 16, false, false, "u16", "uint16_t"},
    {DType::i32, 32, false, true, "i32", "int32_t"},    {DType::u32, 32, false, false, "u32", "uint32_t"},
    {DType::i64, 64, false, true, "i64", "int64_t"},    {DType::u64, 64, false, false, "u64", "uint64_t"},
    {DType::f32, 32, true, true, "f32", "float"},       {DType::f64, 64, true, true, "f64", "double"},
};
const DTypeInfo& info(DType t) { return kInfo[static_cast<int>(t)]; }

constexpr std::string_view kOpNames[] = {"add", "mul", "min", "max", "and", "or", "xor"};
}  // namespace

int bitsOf(DType t) { return info(t).bits; }
bool isFloat(DType t) { return info(t).isFloat; }
bool isSigned(DType t) { return info(t).isSigned; }
std::string_view nameOf(DType t) { return info(t).name; }
std::string_view cTypeOf(DType t) { return info(t).cType; }

std::optional<DType> parseDType(std::string_view s) {
  for (const auto& i : kInfo)
    if (i.name == s) return i.type;
  return std::nullopt;
}

std::string_view nameOf(ReduceOp op) { return kOpNames[static_cast<int>(op)]; }

std::optional<ReduceOp> parseReduceOp(std::string_view s) {
  for (ReduceOp op : kAllReduceOps)
    if (nameOf(op) == s) return op;
  return std::nullopt;
}

std::string_view nameOf(ConvMode m) {
  static constexpr std::string_view names[] = {"", "wrap", "sat", "trunc", "nearest", "floor", "ceil"};
  return names[static_cast<int>(m)];
}

std::optional<ConvMode> parseConvMode(std::string_view s) {
  for (ConvMode m : {ConvMode::wrap, ConvMode::sat, ConvMode::trunc, ConvMode::nearest, ConvMode::floor, ConvMode::ceil})
    if (nameOf(m) == s) return m;
  return std::nullopt;
}

bool isBitwise(ReduceOp op) {
  return op == ReduceOp::bit_and || op == ReduceOp::bit_or || op == ReduceOp::bit_xor;
}

bool commutesWithWidening(ReduceOp op) { return op != ReduceOp::add && op != ReduceOp::mul; }

bool opSupports(ReduceOp op, DType t) { return !(isBitwise(op) && isFloat(t)); }

std::vector<DType> allowedOutputs(DType in) {
  switch (in) {
    case DType::i8: return {DType::i8, DType::i16, DType::i32};
    case DType::u8: return {DType::u8, DType::u16, DType::u32};
    case DType::i16: return {DType::i16, DType::i32, DType::i64};
    case DType::u16: return {DType::u16, DType::u32, DType::u64};
    case DType::i32: return {DType::i32, DType::i64};
    case DType::u32: return {DType::u32, DType::u64};
    case DType::f32: return {DType::f32, DType::f64};
    default: return {in};
  }
}

DType defaultOutput(DType in, ReduceOp op) {
  if (op != ReduceOp::add) return in;
  switch (in) {
    case DType::i8:
    case DType::i16: return DType::i32;
    case DType::u8:
    case DType::u16: return DType::u32;
    default: return in;
  }
}

std::string identityLiteral(ReduceOp op, DType t) {
  const bool f = isFloat(t);
  switch (op) {
    case ReduceOp::add:
    case ReduceOp::bit_or:
    case ReduceOp::bit_xor: return f ? (t == DType::f32 ? "0.0f" : "0.0") : "0";
    case ReduceOp::mul: return f ? (t == DType::f32 ? "1.0f" : "1.0") : "1";
    case ReduceOp::bit_and:
      // All bits of t, spelled as t's value so it keeps its meaning when widened.
      if (isSigned(t)) return "-1";
      break;
    case ReduceOp::min:
      if (f) return t == DType::f32 ? "__builtin_inff()" : "__builtin_inf()";
      break;
    case ReduceOp::max:
      if (f) return t == DType::f32 ? "-__builtin_inff()" : "-__builtin_inf()";
      break;
  }
  // Integer min/max identities: the type's extreme value, spelled numerically.
  auto extreme = [&](bool wantMax) -> std::string {
    switch (t) {
      case DType::i8: return wantMax ? "127" : "-128";
      case DType::u8: return wantMax ? "255" : "0";
      case DType::i16: return wantMax ? "32767" : "-32768";
      case DType::u16: return wantMax ? "65535" : "0";
      case DType::i32: return wantMax ? "2147483647" : "(-2147483647 - 1)";
      case DType::u32: return wantMax ? "4294967295u" : "0u";
      case DType::i64: return wantMax ? "9223372036854775807ll" : "(-9223372036854775807ll - 1)";
      case DType::u64: return wantMax ? "18446744073709551615ull" : "0ull";
      default: return "0";
    }
  };
  return extreme(op != ReduceOp::max);  // min and unsigned and: the type's maximum
}

DType integerOf(DType t, int bits) {
  static const DType s[] = {DType::i8, DType::i16, DType::i32, DType::i64};
  static const DType u[] = {DType::u8, DType::u16, DType::u32, DType::u64};
  const int k = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
  return isSigned(t) && !isFloat(t) ? s[k] : u[k];
}

}  // namespace simdgen
