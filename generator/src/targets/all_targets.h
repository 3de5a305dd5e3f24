// SPDX-License-Identifier: Apache-2.0
// Every target the ISA registry offers, for messages that list them and for the names
// SIMDGEN_VARIANT may take in generated code.
#pragma once

#include <vector>

#include "targets/target.h"

namespace simdgen {

// Each ISA with each subset of its features that makeTarget accepts, in registry order.
std::vector<Target> allTargets();

}  // namespace simdgen
