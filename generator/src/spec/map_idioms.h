// SPDX-License-Identifier: Apache-2.0
// Integer idioms of map expressions recognised as the operations they spell out, so that the
// widened arithmetic C code needs (and `simdgen lift` carries over) becomes one instruction:
//   convert(min(convert(a, W) + convert(b, W), MAX), T)         -> add_sat(a, b)   (T unsigned)
//   convert(max(convert(a, W) - convert(b, W), 0), T)           -> sub_sat(a, b)   (T unsigned)
//   convert(clamp(convert(a, W) +/- convert(b, W), MIN, MAX), T) -> add_sat / sub_sat (T signed)
//   convert((convert(a, W) + convert(b, W) + 1) >> 1, T)         -> avg_round(a, b)
// where a and b have dtype T, W is a wider integer type (signed where a value could be negative)
// and MIN/MAX are T's limits; the clamps may also be written with select (a comparison of the sum
// with the bound) in any order. And the absolute difference, spelt in any orientation:
//   select(a > b, a - b, b - a), max(a, b) - min(a, b)               -> abs_diff(a, b)  (integers)
//   abs(a - b)                                                       -> abs_diff(a, b)  (floats)
//   convert(abs_diff(convert(a, W), convert(b, W)), T)              -> abs_diff(a, b)  (not sat to a signed T)
// Each rewrite computes the same value for every input.
#pragma once

#include "spec/map_expr.h"

namespace simdgen {

// e with every recognised idiom replaced, bottom-up.
MapExpr recognizeIdioms(MapExpr e);

}  // namespace simdgen
