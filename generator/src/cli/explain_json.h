// SPDX-License-Identifier: Apache-2.0
// `simdgen explain --json`: a kernel's plans as JSON for tools (test drivers, IDEs, CI).
#pragma once

#include <string>

#include "emit/emitter.h"

namespace simdgen::cli {

// {"kernel", "family", "strategy", "tensors": [{name, dtype, output, extents, strides}],
//  "params": [{name, public_name, kind, tensor}], "constants": {name: value},
//  "variants": [{target, suffix, vector_bits, scalable, notes, plan}], "dropped": [...]}
// Extents and strides are C expressions over the params' generator-owned names and constants.
// `target` (non-empty) keeps only that variant.
std::string explainJson(const emit::GeneratedKernel& g, const std::string& target);

}  // namespace simdgen::cli
