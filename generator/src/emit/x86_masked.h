// SPDX-License-Identifier: Apache-2.0
// x86 predicates and the memory ops they govern. A predicate is an AVX-512 k-mask or an AVX2
// vector whose active lanes are all ones. whilelt predicates (and their negations) are written
// where they are used, so that a load or store under them sees the lane count: AVX2 has no
// 8/16-bit masked load or store, and copies a prefix with memcpy or re-reads an in-bounds vector
// against a 0x00/0xFF table instead. A predicate written at more than one use is declared once
// at its definition instead (predicateDeclaration); its uses still see the lane range.
#pragma once

#include <string>

#include "emit/lowering.h"

namespace simdgen::emit::x86 {

bool inlinesPredicate(const ir::Stmt& def, const LowerContext& cx);
// An inlined predicate declared once as a variable (IsaLowering::predicateDeclaration).
std::string predicateDeclaration(const ir::Stmt& def, LowerContext& cx);

// The C expression of predicate `p`: its variable, or its inlined definition written out.
std::string predicate(const std::string& p, LowerContext& cx);


// Lane-wise compare of two vectors of type t (see ir::Cmp), as a predicate.
std::string compareExpr(ir::Cmp cmp, DType t, int bits, const std::string& a, const std::string& b, LowerContext& cx);

void whileLt(OpWriter& w);         // a whilelt written as a variable
void predicateLogic(OpWriter& w);  // not / and / or / xor of predicates
void maskedLoad(OpWriter& w);      // Load with a predicate
void maskedStore(OpWriter& w);     // Store with a predicate

}  // namespace simdgen::emit::x86
