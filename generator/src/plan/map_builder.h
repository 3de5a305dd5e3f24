// SPDX-License-Identifier: Apache-2.0
// Builds the target-neutral plan of a `map` spec (element-wise kernels) for one target.
#pragma once

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

ir::Plan buildMapPlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
