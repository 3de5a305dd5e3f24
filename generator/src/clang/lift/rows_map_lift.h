// SPDX-License-Identifier: Apache-2.0
#pragma once
// Element-wise nests over the rows of matrices (`for r { for c { out[r * ldo + c] = f(a[r * lda +
// c], x[c], b[r]); } }`) as one rank-2 `map` call: where each array's rows are, the spec, and the
// block that calls it for every row at once. No clang headers (rows_map_model.cpp finds the nest).
#include <string>
#include <vector>

#include "clang/lift/loop_model.h"
#include "clang/lift/map_lift.h"

namespace simdgen::lift {

struct RowsMapLift {
  LoopModel outer;  // the row loop's header and its text (the rewrite's fallback)
  LoopModel inner;  // the loop along a row
  MapLift map;      // the inner loop's map; inputs read per row moved from its params
  struct Layout {
    std::string first;   // its element at the first row and column, as a pointer expression
    std::string stride;  // elements between its rows, as written; empty: one row for every row
    bool perRow = false; // one value per row (`b[r]`): stride 0, row stride 1
  };
  std::vector<Layout> inputs;        // one per map.inputs
  std::vector<std::string> outputs;  // one per map.outputs: its first element
  std::string outStride;             // the outputs' row stride, as written (the kernel's row_stride)
  std::vector<std::string> scalarsFromMemory;  // params read from memory: no output may cover them
  std::string summary;
  // The shortest row worth a call: a row of at least kMinRowBytes of the widest element (one
  // AVX-512 vector); shorter rows cost more in the kernel's per-row work than the loop.
  long long minCols() const;
};

std::string rowsMapSpecJson(const RowsMapLift& lift, const std::string& name, const std::string& description);
// Calls the kernel for whole rows whose strides are at least a row and whose outputs overlap no
// other array (an in-place output its own input, element for element); otherwise the nest runs.
std::string rowsMapReplacementCode(const RowsMapLift& lift, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
