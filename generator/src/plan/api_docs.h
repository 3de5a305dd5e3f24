// SPDX-License-Identifier: Apache-2.0
// The header documentation of each family's kernels, in the user's names (a spec's runtime
// extents). Builders store it in the plan; the emitter prints it without reading the spec.
#pragma once

#include <string>
#include <vector>

#include "spec/spec.h"

namespace simdgen {

// "output[i] = add over j < cols of input[i * stride + j], for i < rows"
std::string reduceFormula(const KernelSpec& s);
std::vector<std::string> reduceApiDoc(const KernelSpec& s, Strategy strategy);
std::vector<std::string> argReduceApiDoc(const KernelSpec& s);

}  // namespace simdgen
