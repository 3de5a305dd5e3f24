// SPDX-License-Identifier: Apache-2.0
// NEON predicates and the memory ops they govern. NEON has no masked load or store: a tail that
// is the end of a whole vector re-reads that vector and selects against a 0x00/0xFF table; a
// prefix (a row shorter than a vector) is copied through an identity-filled stack buffer; any
// other predicate moves lane by lane. Nothing outside the active lanes is ever read or written,
// except where the plan promised in_bounds.
#pragma once

#include <string>

#include "emit/lowering.h"

namespace simdgen::emit::neon {

bool inlinesPredicate(const ir::Stmt& def, const LowerContext& cx);
// An inlined predicate declared once as a variable (IsaLowering::predicateDeclaration).
std::string predicateDeclaration(const ir::Stmt& def, LowerContext& cx);
// The C expression of predicate `p`: its variable, or its inlined definition written out.
std::string predicate(const std::string& p, LowerContext& cx);

void whileLt(OpWriter& w);         // a whilelt written as a variable
void predicateLogic(OpWriter& w);  // not / and / or / xor of predicates
void maskedLoad(OpWriter& w);      // Load with a predicate
void maskedStore(OpWriter& w);     // Store with a predicate
// The statements that store predicate `p` (lanes of t) as an array `name` of 0 / all-ones lanes.
std::vector<std::string> activeLanes(const std::string& name, DType t, const std::string& p, LowerContext& cx);

}  // namespace simdgen::emit::neon
