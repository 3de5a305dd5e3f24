// SPDX-License-Identifier: Apache-2.0
#pragma once
// Row-wise reductions: an outer loop over rows whose body declares the row's accumulators,
// runs a liftable inner loop over the row and stores its results (`out[r] = acc;`). Lifted as one
// kernel over a [rows, cols] matrix with a row stride (clang side).
#include <string>
#include <variant>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/recognize.h"
#include "clang/lift/rows_lift.h"

namespace simdgen::lift {


// The lift, or why the loop is not a row-wise reduction.
// `inner` is set to the loop over the row when the lift succeeds.
// `mathUlp` as for recognizeMap (a row's sum of exp(...) terms).
std::variant<RowsLift, std::string> modelRows(const clang::ForStmt& outer, clang::ASTContext& ctx, const Options& options, int mathUlp,
                                              const clang::ForStmt*& inner);

// The loop's body holds a `for` directly: a row-wise candidate.
bool hasInnerLoop(const clang::ForStmt& loop);

}  // namespace simdgen::lift
