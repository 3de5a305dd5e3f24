// SPDX-License-Identifier: Apache-2.0
// Transpose networks: blocks of Shuffle statements that turn the rows of a square tile, one per
// vector, into its columns. Built from the named shuffles of ir/shuffle.h so each statement is
// one instruction of the target; sim::proveTranspose checks them and renders their lane tables.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/plan.h"
#include "targets/target.h"

namespace simdgen {

struct TransposeNetwork {
  ir::VecType type;               // every vector's type (inputs, stages, outputs)
  std::vector<std::string> rows;  // inputs: rows[r] holds tile row r ("row0", "row1", ...)
  std::vector<std::string> cols;  // outputs: cols[c] holds tile column c ("col0", ...)
  ir::Block body;                 // declaring Shuffle statements in execution order, a Comment
                                  // naming each stage before it
  // Empty: input rows[k] holds tile row k. Otherwise each input holds two half rows (a network
  // fed by 256-bit loads inserted into 512-bit vectors): the low half of input k holds half
  // halfRows[2k].second (0: columns [0, n/2), 1: columns [n/2, n)) of tile row halfRows[2k].first,
  // its high half holds halfRows[2k + 1] likewise.
  std::vector<std::pair<int, int>> halfRows;
};

// The tile element each lane of input k holds, as row * n + col (n = the tile size): what a
// caller loads there, and the tags sim::runSymbolic proves the network with.
std::vector<int> inputElements(const TransposeNetwork& net, int k);

// The seed-004 (MLIR shuffle_16x16) AVX-512 network for a 16 x 16 tile of 32-bit elements, 64
// shuffles in four stages: stage 1 t1_* = unpacklo/hi_epi32 of row pairs (2i, 2i+1); stage 2
// t2_* = unpacklo/hi_epi64; stage 3 t3_* = shuffle_i32x4 0x88/0xDD (128-bit blocks); stage 4
// col* = shuffle_i32x4 0x88/0xDD again (256-bit halves). `elem` must be a 32-bit type.
TransposeNetwork transpose16x16Avx512(DType elem = DType::f32);

// The generic x86 network for an L x L tile, L = type.lanes, of any element type of w = 8, 16, 32
// or 64 bits in 128-, 256- or 512-bit vectors. Stages t1_*, t2_*, ..., the last one writing col*:
//   - log2(128 / w) stages of unpacklo/hi at unit widths w, 2w, ..., 64 that transpose each
//     128-bit segment's (128 / w)-square block: stage s pairs vector i + j with i + j + 2^(s-1)
//     inside each group of 2^s vectors (i = the group's first vector, j < 2^(s-1));
//   - 256 bits: one stage of permute2x128 0x20 / 0x31 joining the 128-bit halves;
//   - 512 bits: two stages of shuffle_i32x4 0x88 / 0xDD (128-bit blocks, then 256-bit halves).
// L shuffles per stage: 32-bit 512 = 64 (exactly transpose16x16Avx512), 8-bit 512 = 384, 64-bit
// 128 = 2. Every shuffle is one instruction (AVX-512BW for 8/16-bit units on 512 bits).
TransposeNetwork transposeNetworkX86(ir::VecType type);

// Seed 004's 16 x 16 variant for 32-bit elements that saves a stage (48 shuffles): the inputs
// hold half rows as loaded by a 256-bit load plus vinserti32x8 (inserti64x4) from memory, so the
// first 128-bit block gather is done by the loads. With h = 0 (columns 0..7) or 1 (columns 8..15),
// b = 0 (rows 0..7) or 1 (rows 8..15) and q = 0..3, input in<8h + 4b + q> is
//   concat(row 8b + q half h, row 8b + q + 4 half h)       (halfRows says the same).
// Stage 1 t1_* = unpacklo/hi_epi32 of input pairs (2i, 2i+1), stage 2 t2_* = unpacklo/hi_epi64
// (a 4 x 4 transpose in every 128-bit block), stage 3 col* = shuffle_i32x4 0x88 / 0xDD.
TransposeNetwork transpose16x16Avx512HalfRows(DType elem = DType::f32);

// The half-row idea for any element width in 256- or 512-bit vectors (the 48-shuffle network is
// its 32-bit 512-bit case): each input joins the same half of two rows a 128-bit segment apart
// (s = 128 / w rows), so the loads replace one cross-segment stage: log2(s) unpack stages, then
// on 512 bits one shuffle_i32x4 stage; on 256 bits nothing more (8 x 8 f32: 16 shuffles and 8
// inserts against 24 shuffles).
TransposeNetwork transposeHalfRowsX86(ir::VecType type);

// A tile whose rows are whole 64-byte lines, for 8- and 16-bit elements in 512-bit vectors
// (AVX-512BW): 64 x 64 bytes or 32 x 32 16-bit elements, in two passes, so that both matrices are
// read and written as whole lines (a 16 x 16 tile of such elements reads and writes a quarter or
// a half of each line, whose other parts other tiles need while the line may be evicted). With
// s = 128 / w rows per group (16 bytes, 8 16-bit elements) and the tile's side 4 s:
//   rows: inputs row0..row<s-1> (one group of s rows, each a whole line) through the x86
//     network's log2(s) in-segment unpack stages: every 128-bit segment is an s x s tile of its
//     own, so seg<c> holds, in segment k, column s k + c of the group's rows;
//   blocks: inputs part0..part3 (seg<c> of the four groups) through two stages of shuffle_i32x4
//     (8 shuffles): col<k> is column s k + c of all 4 s rows.
// The caller keeps the rows pass's results in memory between the passes.
struct LineTile {
  int group = 0;  // s: rows per group, columns per segment
  TransposeNetwork rows, blocks;
};
LineTile lineTileX86(DType elem);
// The two passes as one network of 4 s rows (4 x s log2 s + 8 s shuffles), for
// sim::proveTranspose: the rows pass once per group (row<s g + r>), the blocks pass once per c.
TransposeNetwork lineTileComposite(const LineTile& tile);

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

// The Arm trn1/trn2 network for an n x n tile of n-lane vectors of at most 128 bits (NEON, or SVE
// at vscale 1: trn works on units of at most 64 bits): log2(n) stages, stage s at unit width
// w * 2^(s-1) pairs vector i with i + 2^(s-1) (trn1 to i, trn2 to i + 2^(s-1)); names t1_*, ...,
// col*. n shuffles per stage, as many as the zip network, with no cross-half moves.
TransposeNetwork transposeTrn(ir::VecType type, int n);

// The network a target uses for an n x n tile whose inputs are whole rows, n = v.lanes (fixed-
// width vectors): x86's (the seed's AVX2 8 x 8 for 32-bit elements in 256 bits), the zip network
// elsewhere (NEON, and the generic targets of plan simulation). Shared by the transpose family and
// the contraction's transposing panel.
TransposeNetwork squareTransposeNetwork(const Target& target, ir::VecType v);

}  // namespace simdgen
