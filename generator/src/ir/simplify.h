// SPDX-License-Identifier: Apache-2.0
// Static simplification: with static extents, some cleanup loops and tails provably never run.
// Removing them keeps static kernels short and stops compilers warning about dead loops.
#pragma once

#include "ir/plan.h"

namespace simdgen::ir {

void removeDeadLoops(Plan& plan);

// Whether any statement of the block (at any depth) is an op of kind k (with a predicate).
bool contains(const Block& block, OpKind k, bool predicatedOnly = false);

}  // namespace simdgen::ir
