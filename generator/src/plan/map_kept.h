// SPDX-License-Identifier: Apache-2.0
// Reduction terms kept for a later pass (XNNPACK's softmax stores exp(x - max) while summing it,
// then scales what it stored): a reduction's term that calls a math function, and that a later
// element-wise output's expression contains again, is stored by the reduction's pass into that
// output's array and read back by the passes up to the output's instead of being computed again.
#pragma once

#include <set>
#include <vector>

#include "spec/spec.h"

namespace simdgen {

struct KeptTerm {
  size_t reduction = 0;  // the output whose term is kept (spec.mapOutputs index)
  size_t output = 0;     // the element-wise output whose array holds it
  int from = 0, to = 0;  // the reduction's pass stores it; passes from + 1 .. to read it
  std::set<const MapExpr*> uses;  // the subexpressions (of those passes' outputs) that read it
};

// The spec's kept terms (the same for every target). Not kept: a float sum whose term is a
// product (fused into a multiply-add, never computed on its own), a term of another type than the
// output's, and an output in place with an input that a pass in between still reads.
std::vector<KeptTerm> keptTerms(const KernelSpec& spec);

// The inputs e reads outside the subexpressions in `skip`.
void inputsReadOutside(const MapExpr& e, const std::set<const MapExpr*>& skip, std::set<int>& out);

}  // namespace simdgen
