// SPDX-License-Identifier: Apache-2.0
#pragma once
// A nest that accumulates weighted rows into one vector, in the loop's order:
//   for (r ...) { [float a = w[r];] [const float* v = m + r * stride;] for (c ...) out[c] += a * v[c]; }
// (llama2.c's attention output `xb[i] += a * v[i]`, y = A^T x): a contraction with "init":
// "output" and "order": "sequential", whose lanes are the columns and whose sum runs over the
// rows in order, each product rounded and added to out[c] as the loop adds it.
#include <string>
#include <variant>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/loop_model.h"

namespace simdgen::lift {

struct AccumulateLift {
  LoopModel outer, inner;  // the loop over rows (its text: the rewrite's fallback) and over a row
  std::string dtype;       // f32 or f64
  struct Operand {
    std::string name;    // the spec's name (the array's where it is an identifier)
    std::string first;   // its element at the first row (and column), as a pointer expression
    std::string stride;  // the matrix's elements between rows, as written; empty for the weights
  };
  Operand weights, matrix;  // in the order the product names them: `first` is the left factor
  bool weightsFirst = true;
  std::string out, outName;  // out[c] at the first column, as a pointer expression; its name
  std::string summary;
};

// The nest's model, or why it is not one (`inner`: the loop over a row, when it is).
std::variant<AccumulateLift, std::string> modelAccumulate(const clang::ForStmt& outer, clang::ASTContext& ctx, const clang::ForStmt*& inner);
std::string accumulateSpecJson(const AccumulateLift& lift, const std::string& name, const std::string& description);
std::string accumulateReplacementCode(const AccumulateLift& lift, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
