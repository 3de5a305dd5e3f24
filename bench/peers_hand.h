// SPDX-License-Identifier: Apache-2.0
// Hand-written intrinsics: the loops an engineer fluent in AVX-512 would write for these kernels
// (the "hand-written VNNI loop" of the platform facts). Compiled like the generated files, with
// function-level target attributes; call one only where the CPU supports it.
#pragma once

#include <cstdint>

namespace simdgen_bench {

// vpdpbusd against a ones vector, four accumulators, a zero-masked load for the row's tail.
void hand_rowsum_i8_avx512_vnni(const int8_t* input, int64_t rows, int64_t cols, int64_t stride, int32_t* out);
// Four f32 accumulators, a zero-masked load for the tail (AVX-512) / the same on AVX2 with a
// masked vmaskmovps tail.
void hand_rowsum_f32_avx512(const float* input, int64_t rows, int64_t cols, int64_t stride, float* out);
void hand_rowsum_f32_avx2(const float* input, int64_t rows, int64_t cols, int64_t stride, float* out);

bool hand_has_avx512_vnni();
bool hand_has_avx2();

}  // namespace simdgen_bench
