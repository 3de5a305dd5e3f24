// SPDX-License-Identifier: Apache-2.0
#pragma once
// A row-wise reduction found by rows_model: what its spec and its rewrite need. No clang headers.
#include <optional>
#include <string>
#include <vector>

#include "clang/lift/loop_model.h"
#include "clang/lift/recognize.h"
#include "clang/lift/reduce_expr_lift.h"

namespace simdgen::lift {

struct RowsLift {
  LoopModel outer;  // the row loop's header and its text (the rewrite's fallback)
  LoopModel inner;  // the loop over a row
  Recognition recognition;
  std::string matrix;   // the first element read (first row, first column), as a pointer expression
  std::string stride;   // elements between rows, as written
  bool columns = false;     // the inner loop runs down a column: a reduction over axis 0
  bool sequential = false;  // a float sum down columns: the spec's order "sequential" (exact)
  std::string values;   // where the first row's result (value) goes, as a pointer expression
  std::string indices;  // arg_reduce: where the first row's index goes
  std::string indexDtype;                  // arg_reduce: "i32" or "i64", the index array's type
  std::string initialValue, initialIndex;  // arg_reduce: the loop's constant initial pair (JSON numbers)

  // Or sums of an expression of several arrays per row (y[r] = W[r] . x, a query's distance to
  // every row): a map spec with one reduction output per accumulator. `recognition` then only
  // gives the summary and the element that sets the shortest row worth a call.
  std::optional<ExprReduceLift> expr;
  struct Input {
    std::string first;   // its element at the first row and column, as a pointer expression
    std::string stride;  // elements between its rows, as written; empty: the same row for every row
    bool perRow = false;  // one value per row (`float m = mean[r];` read by the row's loop): stride 0, row stride 1
  };
  std::vector<Input> inputs;         // one per expr->map.inputs
  std::vector<std::string> outputs;  // one per accumulator: where the first row's result goes
  // Steps on the row's sum before it is stored (`score /= sqrtf(head_size);`, `acc *= scale;`),
  // by a value the same for every row: a sum in order takes them as its contraction's epilogue.
  struct PostStep {
    std::string accumulator;  // the variable divided or multiplied
    std::string op;           // "div" or "scale"
    std::string value;        // the divisor or factor, as written (an argument of the call)
    std::string text;         // the statement, for the remark
  };
  std::vector<PostStep> post;
};

// The spec ([rows, cols] input with a row stride) and the block that calls it for every row at
// once, keeping the original loop for what the kernel does not take (no rows or columns, a stride
// below the row length, outputs that overlap the matrix).
std::string rowsSpecJson(const RowsLift& rows, const std::string& name, const std::string& description);
std::string rowsReplacementCode(const RowsLift& rows, const std::string& name, const std::string& local);
// The same for `expr` (rows_expr_output.cpp).
std::string exprRowsSpecJson(const RowsLift& rows, const std::string& name, const std::string& description);
std::string exprRowsReplacementCode(const RowsLift& rows, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
