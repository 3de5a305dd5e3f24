// SPDX-License-Identifier: Apache-2.0
// The reference interpreter: runs any plan on concrete data, lane by lane, with the exact
// semantics documented in ir/plan.h (same reassociation as the generated code). Plans are
// tested with it at any vector length without a compiler. Every memory access is bounds-checked,
// so a plan that would read past a row's end fails here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace simdgen::sim {

struct OutOfBounds : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tensor's memory: `elems` elements of the plan tensor `name`'s dtype (bounds-checked).
struct Buffer {
  std::string name;
  const void* data = nullptr;  // inputs
  void* out = nullptr;         // outputs
  size_t elems = 0;
};

// Runs `plan` with `params` binding its runtime extents and scalar parameters (a scalar's entry
// holds the bytes of its value: std::memcpy a float into the int64_t), on the given tensors. Scalable plans run
// at `vscale` (vector bits / 128: 1..16 for 128..2048 bits); fixed plans ignore it.
void runPlan(const ir::Plan& plan, const std::map<std::string, int64_t>& params, const std::vector<Buffer>& buffers,
             int vscale = 1);

// The one-input forms: `input` holds inputElems elements of the first input tensor, `output`
// outputElems of the first output.
void runPlan(const ir::Plan& plan, const std::map<std::string, int64_t>& params, const void* input,
             size_t inputElems, void* output, size_t outputElems, int vscale = 1);

// A named output array of a plan with several (arg_reduce: "values" and "indices").
struct OutputBuffer {
  std::string name;
  void* data = nullptr;
  size_t elems = 0;
};
void runPlan(const ir::Plan& plan, const std::map<std::string, int64_t>& params, const void* input,
             size_t inputElems, const std::vector<OutputBuffer>& outputs, int vscale = 1);

}  // namespace simdgen::sim
