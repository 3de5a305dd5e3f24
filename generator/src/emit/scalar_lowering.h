// SPDX-License-Identifier: Apache-2.0
// The portable module: every op on one-lane values, in plain C. Vector modules hand their
// one-lane ops to it, so scalar code reads the same in every variant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emit/lowering.h"

namespace simdgen::emit {

const IsaLowering& scalarLowering();

// LocateEqual as "dst = -1; { <vector search>; if (dst < 0) <scalar loop> }". A vector module
// passes its search and the variable holding the column where the scalar loop takes over (first
// index: the loop starts there; last index: it counts down from just below it).
struct VectorSearch {
  std::vector<std::string> lines;
  std::string resume;
};
void writeLocateEqual(OpWriter& w, const std::optional<VectorSearch>& search);

}  // namespace simdgen::emit
