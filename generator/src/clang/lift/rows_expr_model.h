// SPDX-License-Identifier: Apache-2.0
#pragma once
// Row-wise sums of an expression of several arrays (`y[r] = W[r] . x`, a query's distance to every
// row of a matrix): where each input's rows are, where the results go, and that every accumulator
// starts from its op's identity (clang side; rows_model finds the nest).
#include <map>
#include <string>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/ast_model.h"
#include "clang/lift/rows_lift.h"

namespace simdgen::lift {

struct ExprRows {
  clang::ASTContext& ctx;
  const LoopHeader& rows;  // the loop over rows
  const LoopHeader& cols;  // the loop over a row
  const std::map<const clang::VarDecl*, const clang::Expr*>& locals;  // declared in the row loop, before the inner one
  const std::map<std::string, const clang::VarDecl*>& localByName;
  // Fills lift.inputs, lift.outputs and lift.recognition from lift.expr; throws NotLiftable.
  void model(RowsLift& lift, const std::vector<const clang::BinaryOperator*>& stores) const;

 private:
  void inOrder(RowsLift& lift) const;
};

}  // namespace simdgen::lift
