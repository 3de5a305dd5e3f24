// SPDX-License-Identifier: Apache-2.0
// Symbolic lane simulation: lanes carry source tags instead of values and are run through fold
// networks and shuffle networks. Proves the networks move the right elements (a fold never mixes
// rows, a transpose lands in[r][c] in out[c] lane r) and renders the lane tables printed in
// generated code.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace simdgen::sim {

// One line per stage: the rows held by the lanes of the first vector that stage produces, e.g.
// "stage 1, 8-lane blocks: r0 r0 r0 r0 r0 r0 r0 r0 r1 r1 ...". Throws std::logic_error if any
// lane would combine two rows or the final lane r does not hold row r.
std::vector<std::string> foldLaneTable(const ir::FoldNetwork& network);

// ---- shuffle networks ---------------------------------------------------------------------------

// The source tags one lane holds: sorted, without duplicates. A shuffled lane keeps its set; a
// Binary op's lane holds the union of its operands' sets.
using TagSet = std::vector<int>;
using TagLanes = std::vector<TagSet>;

// "0 16 1 17 4 20": one entry per lane, a single tag as its number, a set as "{0,1}".
std::string laneText(const TagLanes& lanes);

// The lanes of the value one statement defines, in program order.
struct LaneStage {
  std::string var;    // the variable assigned
  std::string op;     // what computed it: "unpack_lo.32 row0 row1", "binary add x y"
  TagLanes lanes;
  std::string text() const { return laneText(lanes); }
  std::string line() const { return var + " = " + op + ": " + text(); }  // one lane-table row
};

struct SymbolicRun {
  std::map<std::string, TagLanes> values;  // every variable's lanes at the end (inputs too)
  std::vector<LaneStage> stages;           // one per Op statement
};

// Runs a straight-line block of Shuffle and Binary ops (Comments are skipped) on `inputs`, whose
// lane l carries the tag inputs[name][l]. Values of scalable types have type.lanes * vscale
// lanes; fixed types ignore vscale. Throws std::logic_error on any other op or statement kind
// (naming it), an undefined operand, or operands whose lane counts do not fit the op.
SymbolicRun runSymbolic(const ir::Block& block, const std::map<std::string, std::vector<int>>& inputs,
                        int vscale = 1);

// The verdict on a transpose network.
struct TransposeProof {
  bool ok = false;
  std::string message;             // empty when ok; otherwise names the first wrong lane
  std::vector<LaneStage> stages;   // the lane table of every statement (also on failure)
  std::vector<std::string> table() const;  // stages as lines (LaneStage::line)
};

// Proves `block` transposes an R x C tile, R = inputs.size(), C = outputs.size(): input vector r
// (inputs[r], C lanes) holds row r, its lane c tagged r*C + c; output vector c (outputs[c]) must
// hold column c, i.e. lane r holds exactly tag r*C + c. Outputs are checked in order, lanes in
// order; the first wrong lane is reported as
//   "<output> lane <l> holds row r, col c (tag t); expected row r', col c' (tag t')".
// A missing output or one with the wrong lane count is a failed proof too. Malformed networks
// (unknown ops, lane counts that do not fit) throw std::logic_error as in runSymbolic.
TransposeProof proveTranspose(const ir::Block& block, const std::vector<std::string>& inputs,
                              const std::vector<std::string>& outputs, int vscale = 1);

}  // namespace simdgen::sim
