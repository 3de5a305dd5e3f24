// SPDX-License-Identifier: Apache-2.0
// The Arm SVE lowering module (targets sve and sve2): vector-length-agnostic code for scalable
// plans, svbool_t predicates, loops governed by svwhilelt.
#pragma once

#include "emit/lowering.h"

namespace simdgen::emit {

const IsaLowering& sveLowering();

}  // namespace simdgen::emit
