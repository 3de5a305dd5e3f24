#include "sim/lane_sim.h"

#include <stdexcept>

#include "ir/fold_stage.h"

namespace simdgen::sim {

std::vector<std::string> foldLaneTable(const ir::FoldNetwork& n) {
  // Input vector m carries row inputOrder[m] in all its lanes.
  std::vector<std::vector<int>> vecs;
  for (int m = 0; m < n.lanes; ++m) vecs.push_back(std::vector<int>(n.lanes, n.inputOrder[m]));
  auto same = [](int a, int b) {
    if (a != b) throw std::logic_error("fold network combines rows " + std::to_string(a) + " and " + std::to_string(b));
    return a;
  };
  std::vector<std::string> lines;
  int stage = 1;
  for (int block : n.blockLanes) {
    std::vector<std::vector<int>> next;
    for (size_t m = 0; m + 1 < vecs.size(); m += 2) next.push_back(ir::foldStage(vecs[m], vecs[m + 1], block, n.elemBits, same));
    vecs = std::move(next);
    std::string line = "stage " + std::to_string(stage++) + ", " + std::to_string(block) + "-lane blocks:";
    for (int row : vecs.front()) line += " r" + std::to_string(row);
    lines.push_back(line);
  }
  for (int lane = 0; lane < n.lanes; ++lane)
    if (vecs.front()[lane] != lane) throw std::logic_error("fold network leaves row " + std::to_string(vecs.front()[lane]) + " in lane " + std::to_string(lane));
  return lines;
}

}  // namespace simdgen::sim
