// SPDX-License-Identifier: Apache-2.0
// Hand-written transpose networks for bench_transpose.cpp, compiled like the
// generated files (function-level target attributes, no -march flag). Call
// one only where the CPU supports it (avx512f; shuf48 also avx512dq; avx2).
#pragma once

#include <cstdint>

namespace simdgen_bench {

// One 16x16 f32 tile, rows 16 elements apart in and out (seed 004's kernel).
// shuf64: MLIR's shuffle_16x16 network, 8+8 unpack{lo,hi}_ps, 8+8
// unpack{lo,hi}_pd, 16+16 shuffle_f32x4 (0x88/0xDD).
void hand_transpose_16x16_f32_shuf64(const float* in, float* out);
// shuf48: half rows loaded into both halves of a zmm (castps256_ps512 +
// insertf32x8 from memory), so one 128-bit stage disappears: 16 unpack_ps,
// 16 shuffle_ps, 16 shuffle_f32x4.
void hand_transpose_16x16_f32_shuf48(const float* in, float* out);
// One 8x8 f32 tile, rows 8 elements apart: 8 unpack_ps, 8 shuffle_ps,
// 8 permute2f128 (AVX2).
void hand_transpose_8x8_f32_avx2(const float* in, float* out);
// A whole matrix: the shuf64 network on 16x16 tiles in row-major tile order
// (no cache blocking); the right and bottom edges element by element.
void hand_transpose_f32_tiled(const float* in, int64_t rows, int64_t cols, int64_t lda,
                              int64_t ldo, float* out);

}  // namespace simdgen_bench
