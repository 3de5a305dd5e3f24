// SPDX-License-Identifier: Apache-2.0
#pragma once
// Finds element-wise nests over matrix rows (clang side; rows_map_lift.h says what they become).
#include <string>
#include <variant>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/rows_map_lift.h"

namespace simdgen::lift {

// `for (r ...) { row locals; for (c ...) { element-wise stores } }` whose every array is read or
// written at [r * stride + c] (or a row pointer's [c], g[r][c]), at [c] (one row for every row) or
// at [r] (one value per row); or why not. `inner`: the inner loop, part of the lift.
// `innerIsMap`: the inner loop is an element-wise loop (the reason, if any, is the nest's).
std::variant<RowsMapLift, std::string> modelRowsMap(const clang::ForStmt& outer, clang::ASTContext& ctx, int mathUlp,
                                                    const clang::ForStmt*& inner, bool& innerIsMap);

}  // namespace simdgen::lift
