// SPDX-License-Identifier: Apache-2.0
// The math functions of the map expression language (MapOp::math), each one algorithm written in
// MathOps: range reduction, a polynomial (coefficients.h, from derive_coefficients.py) and the
// reconstruction by exponent bits. Special values follow C's <math.h>; docs/math.md states each
// function's bound per tier, measured over every f32 input by tests/math.
#pragma once

#include <string>

#include "plan/math/math_ops.h"
#include "spec/map_expr.h"

namespace simdgen::math {

// The variable holding fn(x) for a result of dtype `t`, after the ops that compute it (appended
// through `ops`), to within `maxUlp` units in the last place of t (1 or 4: the spec's tier).
// `ops` works in workingType(fn, maxUlp, t).
std::string emitMathFn(MathFn fn, int maxUlp, DType t, const std::string& x, MathOps& ops);

// The type fn of a `t` value is computed in at a tier: t, or f64 where f32's own arithmetic cannot
// keep the bound (the caller converts the argument there and the result back, rounding once).
DType workingType(MathFn fn, int maxUlp, DType t);

// What the generated code's summary says about a function at a tier: "exp: <= 1 ULP, ...".
std::string describeMathFn(MathFn fn, int maxUlp, DType t);

}  // namespace simdgen::math
