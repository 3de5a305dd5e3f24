// SPDX-License-Identifier: Apache-2.0
// The `transpose` family: output[c, r] = input[r, c] for a rows x cols input, each matrix with a
// row stride of its own.
#pragma once

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

ir::Plan buildTransposePlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
