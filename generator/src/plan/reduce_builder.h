// SPDX-License-Identifier: Apache-2.0
// Builds the target-neutral plan of a `reduce` spec for one target.
#pragma once

#include <stdexcept>

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

// An unsupported combination found while planning (the spec itself was well formed).
struct PlanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The strategy `auto` resolves to for this spec.
Strategy resolveStrategy(const KernelSpec& spec);

ir::Plan buildReducePlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
