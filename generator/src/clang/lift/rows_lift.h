// SPDX-License-Identifier: Apache-2.0
#pragma once
// A row-wise reduction found by rows_model: what its spec and its rewrite need. No clang headers.
#include <string>

#include "clang/lift/loop_model.h"
#include "clang/lift/recognize.h"

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
};

// The spec ([rows, cols] input with a row stride) and the block that calls it for every row at
// once, keeping the original loop for what the kernel does not take (no rows or columns, a stride
// below the row length, outputs that overlap the matrix).
std::string rowsSpecJson(const RowsLift& rows, const std::string& name, const std::string& description);
std::string rowsReplacementCode(const RowsLift& rows, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
