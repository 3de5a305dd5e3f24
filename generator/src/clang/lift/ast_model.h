// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builds a LoopModel from a `for` statement by evaluating its body symbolically (clang side).
#include <string>
#include <variant>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/loop_model.h"

namespace simdgen::lift {

ScalarType scalarTypeOf(clang::QualType type, const clang::ASTContext& ctx);

// The model, or why the loop is not a simple range over an array with carried scalars.
std::variant<LoopModel, std::string> modelLoop(const clang::ForStmt& loop, clang::ASTContext& ctx);

}  // namespace simdgen::lift
