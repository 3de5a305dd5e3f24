// SPDX-License-Identifier: Apache-2.0
// Folding values into their uses. A vector load folds into its only consumer: `acc = dpbusd(acc, ones, load(p))` instead of a
// named `x0 = load(p)` first. Same instructions, but GCC 12 allocates registers far better for
// the folded form: with the named load it copies every vpdpbusd accumulator through a spare
// register each iteration (11 extra vmovdqa in a 4-accumulator loop, the i8 row sum at 0.6x of
// the hand-written loop); folded, it emits none (measured: 98 -> 150+ B/ns on 384x500 i8).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace simdgen::emit {

// How often each variable is read in statements [from, end) of `body` and their nested blocks
// (operands, predicates, index symbols).
std::map<std::string, int> countUses(const ir::Block& body, size_t from = 0);

// Statement k of `block`, a load, may fold into statement k + 1 when it is a plain (unpredicated)
// vector load that declares its variable and nothing after it but that statement reads it.
bool foldable(const ir::Block& block, size_t k);

// The consumer's lines with the load's expression in place of `name`, when the load lowered to
// one line "T name = EXPR;" and `name` occurs exactly once in the consumer's lines.
std::optional<std::vector<std::string>> foldLoad(const std::vector<std::string>& loadLines, const std::string& name,
                                                 const std::vector<std::string>& consumerLines);

// Statement k of `block` defines a predicate that may be written at its uses instead (see
// IsaLowering::inlinesPredicate): nothing after it in the block (at any depth) assigns its name
// again or changes a loop variable or value its definition reads.
bool predicateInlinable(const ir::Block& block, size_t k);

}  // namespace simdgen::emit
