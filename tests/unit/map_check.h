// SPDX-License-Identifier: Apache-2.0
// The map unit tests' plan checker (map_check.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../reference/map_reference.h"
#include "spec/spec.h"

namespace simdgen::testing {

// Every output element of `mem` (inputs first, then outputs, as the plan's tensors) against the
// reference evaluating the spec's expression text, input k's element i read at i * stride[k]; and
// nothing written past the n-th element.
void checkOutputs(const KernelSpec& spec, const std::vector<std::vector<unsigned char>>& mem, int64_t n, const std::vector<int64_t>& stride,
                  const std::map<std::string, simdgen_ref::map::Value>& scalars);

// The same over rows x cols elements: output element [r, c] at r * rowStride + c, input k's at
// r * inputRowStride[k] + c * inputStride[k]; every byte of an output that holds no element
// (the gaps between rows, the end) must keep its 0xA5.
// `outputStride` (one per output; empty: all 1): output o's element [r, c] at r * rowStride + c * outputStride[o].
void checkOutputs(const KernelSpec& spec, const std::vector<std::vector<unsigned char>>& mem, int64_t rows, int64_t cols, int64_t rowStride,
                  const std::vector<int64_t>& inputRowStride, const std::vector<int64_t>& inputStride,
                  const std::map<std::string, simdgen_ref::map::Value>& scalars, const std::vector<int64_t>& outputStride = {});

// Runs the plan of the map spec `text` for a generic target of `bits` on random bytes over n
// elements (NaN, infinities, subnormals, both zeros and integer extremes all occur) and compares
// every output with the reference evaluating the spec's expression text; nothing may be written
// past the n-th element.
void checkMapPlan(const std::string& text, int bits, int64_t n, uint64_t seed);

// The same for a rank-2 map over rows x cols whose row stride (if runtime) is cols + pad and
// whose inputs' runtime strides take values drawn from `seed` (0, 1, 2, 3, 7 or rows + 1), so
// that strided, repeated (0) and column-major inputs all occur.
void checkMapPlan2D(const std::string& text, int bits, int64_t rows, int64_t cols, int64_t pad, uint64_t seed);

}  // namespace simdgen::testing
