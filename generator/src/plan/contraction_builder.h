// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

// The plan of a `contraction` spec for one target: a register-tiled loop nest (see the .cpp).
ir::Plan buildContractionPlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
