// SPDX-License-Identifier: Apache-2.0
// The functions that pack a contraction's operand ahead ("pack": "ahead", spec/contraction_spec.h):
// per such operand, <kernel>_pack_<name>() copies the caller's tensor into the dense layout the
// kernel reads (the vector dim innermost, then the reduction dims in the spec's order: each step
// of the reduction reads the next vectors in memory), and <kernel>_<name>_packed_elements() gives
// the copy's size. Plain loops, the same on every target: the copy is made once per tensor (a
// convolution's weights), not once per call.
#pragma once

#include <vector>

#include "ir/plan.h"
#include "spec/spec.h"

namespace simdgen {

std::vector<ir::Companion> packAheadFunctions(const KernelSpec& spec);

}  // namespace simdgen
