// SPDX-License-Identifier: Apache-2.0
// The index expressions of contraction tensors: "k", "y + rz", "2*x + ry", "x + 1".
#pragma once

#include <string>
#include <vector>

#include "spec/contraction_spec.h"
#include "spec/map_expr.h"  // ExprError

namespace simdgen {

// Parses `text` over `dims` (by name). Grammar (whitespace free between tokens):
//   index := term (('+' term) | ('-' integer))*
//   term := integer | name | integer '*' name | name '*' integer
// Coefficients are positive; a dim appears at most once; constants add up (and may be negative:
// the spec parser allows that for padded operands only). Throws ExprError
// (with the offset of the offending character).
AffineIndex parseAffineIndex(const std::string& text, const std::vector<ContractionDim>& dims);

}  // namespace simdgen
