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

// Runs the plan of the map spec `text` for a generic target of `bits` on random bytes over n
// elements (NaN, infinities, subnormals, both zeros and integer extremes all occur) and compares
// every output with the reference evaluating the spec's expression text; nothing may be written
// past the n-th element.
void checkMapPlan(const std::string& text, int bits, int64_t n, uint64_t seed);

}  // namespace simdgen::testing
