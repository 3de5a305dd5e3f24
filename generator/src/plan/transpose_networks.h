// SPDX-License-Identifier: Apache-2.0
// Transpose networks: blocks of Shuffle statements that turn the rows of a square tile, one per
// vector, into its columns. Built from the named shuffles of ir/shuffle.h so each statement is
// one instruction of the target; sim::proveTranspose checks them and renders their lane tables.
#pragma once

#include <string>
#include <vector>

#include "ir/plan.h"

namespace simdgen {

struct TransposeNetwork {
  ir::VecType type;               // every vector's type (inputs, stages, outputs)
  std::vector<std::string> rows;  // inputs: rows[r] holds tile row r ("row0", "row1", ...)
  std::vector<std::string> cols;  // outputs: cols[c] holds tile column c ("col0", ...)
  ir::Block body;                 // declaring Shuffle statements in execution order, a Comment
                                  // naming each stage before it
};

// The seed-004 (MLIR shuffle_16x16) AVX-512 network for a 16 x 16 tile of 32-bit elements, 64
// shuffles in four stages: stage 1 t1_* = unpacklo/hi_epi32 of row pairs (2i, 2i+1); stage 2
// t2_* = unpacklo/hi_epi64; stage 3 t3_* = shuffle_i32x4 0x88/0xDD (128-bit blocks); stage 4
// col* = shuffle_i32x4 0x88/0xDD again (256-bit halves). `elem` must be a 32-bit type.
TransposeNetwork transpose16x16Avx512(DType elem = DType::f32);

// The AVX2 network for an 8 x 8 tile of 32-bit elements, 24 shuffles: t1_* = unpacklo/hi_ps of
// row pairs, t2_* = shuffle_ps 0x44/0xEE (64-bit pairs), col* = permute2x128 0x20/0x31.
TransposeNetwork transpose8x8Avx2(DType elem = DType::f32);

// The vector-length-agnostic Arm network for an n x n tile, n = lanes of `type` at the intended
// vector length: log2(n) stages of zip1/zip2 at the element width; stage s pairs vector i with
// vector i + n/2 (z<s>_2i = zip1, z<s>_2i+1 = zip2), n shuffles per stage. Every statement is a
// plain zip1/zip2 of whole vectors, which NEON and SVE have at every element width and length.
//
// For a fixed type n must equal type.lanes. For a scalable (SVE) type n must be type.lanes * vscale
// for the vscale the network is meant for: a tile row fills one vector, so the number of vectors
// (and statements) depends on vscale, which a plan's statement list cannot. The network built here
// is therefore specific to one vscale (it is proven with sim::proveTranspose at that vscale);
// emitted SVE code has to either dispatch on svcntw() to one such network per supported length,
// or run the same regular stage structure as a loop over vectors held in memory.
TransposeNetwork transposeZip(ir::VecType type, int n);

}  // namespace simdgen
