// SPDX-License-Identifier: Apache-2.0
// The x86 lowering module (SSE/AVX2/AVX-512).
#pragma once

#include "emit/lowering.h"

namespace simdgen::emit {

const IsaLowering& x86Lowering();

}  // namespace simdgen::emit
