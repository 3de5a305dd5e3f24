// SPDX-License-Identifier: Apache-2.0
// The one signature every benchmarked implementation is adapted to.
#pragma once

#include <cstdint>

namespace simdgen_bench {
template <class In, class Out>
using RowKernel = void (*)(const In* input, int64_t rows, int64_t cols,
                           int64_t stride, Out* output);
using RowKernelI8 = RowKernel<int8_t, int32_t>;
using RowKernelF32 = RowKernel<float, float>;
}  // namespace simdgen_bench
