// SPDX-License-Identifier: Apache-2.0
// Static simplification: with static extents, some cleanup loops and tails provably never run.
// Removing them keeps static kernels short and stops compilers warning about dead loops.
#pragma once

#include "ir/plan.h"

namespace simdgen::ir {

void removeDeadLoops(Plan& plan);

// Removes values nothing reads: a declared op result or let with no later read in its scope
// (ops that only update it do not count) goes, with every update of it; a store or fence
// always stays. Static extents leave such values behind (an edge tile's last columns that
// no store takes, a let that decided a branch folded away) and compilers warn about them
// (-Wunused-variable).
void removeDeadValues(Plan& plan);

// removeDeadLoops, then removeDeadValues: what builders run on a finished plan.
void removeDeadCode(Plan& plan);

// Whether any statement of the block (at any depth) is an op of kind k (with a predicate).
bool contains(const Block& block, OpKind k, bool predicatedOnly = false);

}  // namespace simdgen::ir
