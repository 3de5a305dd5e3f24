// SPDX-License-Identifier: Apache-2.0
// The Arm NEON lowering module (AArch64 AdvSIMD, 128-bit vectors; dotprod as a feature).
#pragma once

#include "emit/lowering.h"

namespace simdgen::emit {

const IsaLowering& neonLowering();

}  // namespace simdgen::emit
