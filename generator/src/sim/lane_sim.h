// Symbolic lane simulation: every lane tagged with its source row, run through a fold network.
// Proves the network never mixes rows and renders the lane tables printed in generated code.
#pragma once

#include <string>
#include <vector>

#include "ir/plan.h"

namespace simdgen::sim {

// One line per stage: the rows held by the lanes of the first vector that stage produces, e.g.
// "stage 1, 8-lane blocks: r0 r0 r0 r0 r0 r0 r0 r0 r1 r1 ...". Throws std::logic_error if any
// lane would combine two rows or the final lane r does not hold row r.
std::vector<std::string> foldLaneTable(const ir::FoldNetwork& network);

}  // namespace simdgen::sim
