// SPDX-License-Identifier: Apache-2.0
// Element types and reduction operators: the vocabulary every layer shares.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simdgen {

enum class DType { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };
enum class ReduceOp { add, mul, min, max, bit_and, bit_or, bit_xor };

inline constexpr DType kAllDTypes[] = {DType::i8,  DType::u8,  DType::i16, DType::u16, DType::i32,
                                       DType::u32, DType::i64, DType::u64, DType::f32, DType::f64};
inline constexpr ReduceOp kAllReduceOps[] = {ReduceOp::add,     ReduceOp::mul,    ReduceOp::min,
                                             ReduceOp::max,     ReduceOp::bit_and, ReduceOp::bit_or,
                                             ReduceOp::bit_xor};

int bitsOf(DType t);
inline int bytesOf(DType t) { return bitsOf(t) / 8; }
bool isFloat(DType t);
bool isSigned(DType t);  // floats count as signed
// The integer type of `bits` bits with t's signedness (floats: unsigned), and t's unsigned twin.
DType integerOf(DType t, int bits);
inline DType unsignedOf(DType t) { return integerOf(DType::u8, bitsOf(t)); }
std::string_view nameOf(DType t);   // "i8"
std::string_view cTypeOf(DType t);  // "int8_t"
std::optional<DType> parseDType(std::string_view s);

// How a map's convert(x, dtype, mode) treats values the destination cannot hold exactly. `plain` is
// the C cast of the reduce family's internal conversions (widening; integer narrowing wraps);
// wrap and sat narrow integers; trunc, nearest (ties to even), floor and ceil round a float to an
// integer, saturating out-of-range values and mapping NaN to 0.
enum class ConvMode { plain, wrap, sat, trunc, nearest, floor, ceil };
std::string_view nameOf(ConvMode m);  // "wrap", ...; "" for plain
std::optional<ConvMode> parseConvMode(std::string_view s);

std::string_view nameOf(ReduceOp op);  // spec spelling: "add", "and", ...
std::optional<ReduceOp> parseReduceOp(std::string_view s);
bool isBitwise(ReduceOp op);
// True when op_j(extend(x_j)) == extend(op_j x_j): the reduction may run in the
// narrow input type and be widened once at the end.
bool commutesWithWidening(ReduceOp op);
bool opSupports(ReduceOp op, DType t);  // bitwise ops need integers

// Output (accumulator) types a reduction from `in` may produce: `in` itself or a
// wider type of the same family (i8 -> i16/i32, f32 -> f64, ...).
std::vector<DType> allowedOutputs(DType in);
// The default output type: sums of narrow integers widen (i8 -> i32, u16 -> u32),
// everything else keeps the input type.
DType defaultOutput(DType in, ReduceOp op);

// The identity element of op in type t, as a C++ literal of that type
// ("0", "INT8_MIN" style literals are avoided: values are spelled numerically).
std::string identityLiteral(ReduceOp op, DType t);

}  // namespace simdgen
