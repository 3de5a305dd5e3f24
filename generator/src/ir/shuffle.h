// SPDX-License-Identifier: Apache-2.0
// Named shuffle constructors (like MLIR's createUnpackLoPs / create4x128BitSuffle): each builds
// an ir::Shuffle whose lane map (Shuffle::laneMap) is exactly what the instruction it is named
// after computes, so plans compose networks from them and the interpreter, the lane simulator
// and the lowerings agree. Lane maps index concat(a, b): lanes [0, n) are a, [n, 2n) are b.
#pragma once

#include <string>
#include <vector>

#include "ir/plan.h"

namespace simdgen::ir::shuffles {

Shuffle unpackLo(int unitBits);            // x86 unpacklo_epi32/epi64 (per 128-bit segment)
Shuffle unpackHi(int unitBits);            // x86 unpackhi_epi32/epi64
Shuffle shufflePs(int imm);                // x86 shuffle_ps: 32-bit units, 2 from a, 2 from b
Shuffle lanes128(int imm);                 // x86 shuffle_i32x4 (512) / permute2x128 (256)
Shuffle concatHalves(bool upper);          // low (or high) halves of a and b: vinserti32x8 style
Shuffle zip1(int unitBits), zip2(int unitBits);  // Arm zip1/zip2 (whole vector)
Shuffle uzp1(int unitBits), uzp2(int unitBits);  // Arm uzp1/uzp2
Shuffle trn1(int unitBits), trn2(int unitBits);  // Arm trn1/trn2
Shuffle explicitMap(std::vector<int> map);       // MLIR vector.shuffle (fixed lane counts)

// dst = shuffle(srcs...) as a declaring statement of type t.
Stmt shuffleOp(std::string dst, VecType t, std::vector<std::string> srcs, Shuffle sh);

}  // namespace simdgen::ir::shuffles
