// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3 peers (peers_highway.cpp), runtime-dispatched by Highway.
#pragma once

#include <cstdint>
#include <string>

#include "row_kernel.h"

namespace simdgen_bench {
void hwy_rowsum_i8_sad(const int8_t*, int64_t, int64_t, int64_t, int32_t*);
void hwy_rowsum_i8_madd(const int8_t*, int64_t, int64_t, int64_t, int32_t*);
void hwy_rowsum_f32(const float*, int64_t, int64_t, int64_t, float*);
void hwy_rowmax_f32(const float*, int64_t, int64_t, int64_t, float*);

// The same kernels pinned to Highway's AVX2 target (null if not compiled).
struct HighwayAvx2 {
  RowKernelI8 rowsum_i8_sad = nullptr;
  RowKernelI8 rowsum_i8_madd = nullptr;
  RowKernelF32 rowsum_f32 = nullptr;
  RowKernelF32 rowmax_f32 = nullptr;
};
HighwayAvx2 hwy_avx2_kernels();
bool highway_has_avx2();
std::string highway_best_target_name();
}  // namespace simdgen_bench
