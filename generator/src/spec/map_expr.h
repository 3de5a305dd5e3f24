// SPDX-License-Identifier: Apache-2.0
// The `map` family's expression language: one output element from the inputs' elements at the
// same position. A small typed tree (parsed from strings such as "alpha * x + y" by
// parseMapExpr), so that the plan builder never sees text.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace simdgen {

enum class MapOp {
  literal,  // `text`: a C literal of `type`
  input,    // input tensor number `input`
  param,    // scalar parameter number `input` (a runtime value, the same in every lane)
  add, sub, mul, min, max,  // two operands; min: a < b ? a : b, max: a > b ? a : b (b wins ties, NaN)
  div,      // a / b (floats only: correctly rounded)
  neg,      // -a (integers wrap: -MIN = MIN; floats flip the sign bit, zeros and NaN too)
  fma,      // fma(a, b, c) = a * b + c rounded once (floats only)
  abs,      // |a| (signed integers wrap: |MIN| = MIN; floats clear the sign bit)
  select,   // select(cond, a, b): cond is a comparison node
  convert,  // convert(a, dtype[, mode]): a (of args[0].type) as `type`, by `mode` (docs/spec.md)
  lt, le, gt, ge, eq, ne,  // comparisons (only as select's condition; floats: false with NaN, except ne)
  bit_and, bit_or, bit_xor,  // a & b, a | b, a ^ b (integers only)
  bit_not,  // ~a (integers only)
  shl, shr, // a << count, a >> count: `count` in [0, bits); shr is arithmetic for signed types,
            //   logical for unsigned; shl drops the bits shifted out (wraps, never undefined)
  sqrt,     // sqrt(a), correctly rounded (floats only: IEEE, sqrt(-0.0) = -0.0, below zero NaN)
  round,    // floor(a) / ceil(a) / trunc(a) / nearest(a) by `mode`: a float rounded to an integral
            //   value of its own dtype (nearest: ties to even; the sign of a zero result is kept)
  add_sat, sub_sat,  // a + b, a - b clamped to the dtype's range (integers only)
  avg_round,         // (a + b + 1) >> 1 without overflow: the mean rounded up (integers only)
  abs_diff,          // |a - b|: integers exact, modulo 2^bits (select(a > b, a - b, b - a)); floats
                     //   abs(a - b)
  popcount,          // the number of set bits of a (integers only: 0 .. bits, in a's dtype)
  math,              // fn(a): a function of floats computed to the spec's ULP bound (MathFn, docs/math.md)
  row_value,         // the value of reduction output number `input` for this row (an earlier stage's
                     //   result, the same in every lane)
};

// The functions of floats that are computed to a stated accuracy (`max_ulp` of the spec) rather than
// exactly: each is one algorithm in plan/math/, built from the exact ops above.
enum class MathFn { exp, exp2, expm1, log, log2, log1p, recip, rsqrt, sin, cos, sigmoid, tanh, erf, gelu, gelu_tanh };
inline constexpr MathFn kAllMathFns[] = {MathFn::exp,     MathFn::exp2,  MathFn::expm1, MathFn::log,     MathFn::log2,
                                         MathFn::log1p,   MathFn::recip, MathFn::rsqrt, MathFn::sin,     MathFn::cos,
                                         MathFn::sigmoid, MathFn::tanh,  MathFn::erf,   MathFn::gelu,    MathFn::gelu_tanh};
std::string_view nameOf(MathFn f);
std::string_view nameOf(MapOp op);

struct MapExpr {
  MapOp op = MapOp::literal;
  DType type = DType::f32;  // the value's type (a comparison: its operands' type)
  std::string text;         // literal: C literal of `type`
  int input = -1;           // input: index into the spec's inputs; param: into its params
  std::vector<MapExpr> args;
  ConvMode mode = ConvMode::plain;  // convert: wrap/sat (integers), trunc/nearest/floor/ceil (float -> integer); round: the direction
  int count = 0;                    // shl, shr: the shift count (args holds only the shifted value)
  MathFn fn = MathFn::exp;          // math: which function
};

// A problem in an expression string: `offset` is the character (0-based) it points at.
struct ExprError : std::runtime_error {
  std::size_t offset;
  ExprError(std::size_t at, const std::string& message) : std::runtime_error(message), offset(at) {}
};

struct MapInputName {
  std::string name;
  DType dtype;
};

// An earlier output an expression may name: a reduction's per-row value (`elementwise` null, op
// row_value) or an element-wise output, whose expression stands in for the name.
struct MapValueName {
  std::string name;
  DType dtype;
  int output = -1;
  const MapExpr* elementwise = nullptr;
};

// Parses `text` as an expression of type `result` over `inputs`. Throws ExprError.
// Grammar (whitespace between tokens is free; C's precedence, except that a comparison binds
// loosest: `a & 1 == 0` is `(a & 1) == 0`):
//   expr    := xor ('|' xor)*
//   xor     := and ('^' and)*
//   and     := shift ('&' shift)*
//   shift   := sum (('<<' | '>>') number)*
//   sum     := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := '-' unary | '~' unary | primary
//   primary := number | name | name '(' args ')' | '(' expr ')'
//   cond    := expr ('<' | '<=' | '>' | '>=' | '==' | '!=') expr
// Numbers are decimal, or hexadecimal integers (0x1F); a float operand's number is rounded as
// strtof / strtod round it (spec/float_literal.h: an error if that is infinity), may end in C's
// suffix f when it is an f32 with a '.' or an exponent, and becomes the value's shortest decimal
// literal (MapExpr::text). Bitwise operators and shifts take integers;
// a shift count is a number from 0 to the bits of the shifted value's dtype minus 1.
// Functions: fma(a, b, c), min(a, b), max(a, b), clamp(x, lo, hi) = min(max(x, lo), hi),
// relu(x) = max(x, 0), abs(x), select(cond, a, b), convert(x, dtype) and convert(x, dtype, mode);
// on floats only: sqrt(x), floor(x), ceil(x), trunc(x), nearest(x), '/', and the MathFn functions
// (exp(x), log(x), ...). A name is an input, a
// scalar parameter (`params`) or one of `values` (outputs listed earlier). Operands of one operator have one dtype; numbers take the dtype of
// the other operand (or of the output) and must be representable in it.
MapExpr parseMapExpr(const std::string& text, const std::vector<MapInputName>& inputs,
                     const std::vector<MapInputName>& params, DType result, const std::vector<MapValueName>& values = {});

// Why e cannot be computed within `maxUlp` ULP (a function at a tier not offered), or "" if it can.
std::string mathTierUnavailable(const MapExpr& e, int maxUlp);

// The expression written back in the grammar (fully parenthesised), for docs and plan notes.
std::string toString(const MapExpr& e, const std::vector<MapInputName>& inputs, const std::vector<MapInputName>& params);

}  // namespace simdgen
