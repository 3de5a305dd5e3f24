// SPDX-License-Identifier: Apache-2.0
// Builds the target-neutral plan of a `reduce` spec for one target.
#pragma once

#include <stdexcept>
#include <string>

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

// An unsupported combination found while planning (the spec itself was well formed). `pointer`
// names the spec value to blame, so that the CLI reports it as FILE:LINE:COL like a SpecError.
struct PlanError : std::runtime_error {
  std::string pointer;
  explicit PlanError(const std::string& message, std::string at = "")
      : std::runtime_error(message), pointer(std::move(at)) {}
};

// The strategy `auto` resolves to for this spec.
Strategy resolveStrategy(const KernelSpec& spec);

ir::Plan buildReducePlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
