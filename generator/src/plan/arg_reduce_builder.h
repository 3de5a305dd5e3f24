// SPDX-License-Identifier: Apache-2.0
// Builds the target-neutral plan of an `arg_reduce` spec (argmin/argmax with index) for one target.
#pragma once

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

ir::Plan buildArgReducePlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
