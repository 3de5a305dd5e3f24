// One stage of the multi-row fold network (see FoldNetwork in plan.h), written once as a
// template so the interpreter (on numbers) and the lane simulator (on source tags) agree.
#pragma once

#include <algorithm>
#include <vector>

namespace simdgen::ir {

// Combines vectors a and b at block size `blockLanes`: each segment of the result is
// concat(foldBlocks(a.segment), foldBlocks(b.segment)); a segment is the whole vector while a
// block spans more than 128 bits, otherwise one 128-bit lane. fold(lower, upper) = combine(lo, hi).
template <class T, class Combine>
std::vector<T> foldStage(const std::vector<T>& a, const std::vector<T>& b, int blockLanes,
                         int elemBits, Combine combine) {
  const int lanes = static_cast<int>(a.size());
  const int segLanes = blockLanes * elemBits > 128 ? lanes : std::min(lanes, 128 / elemBits);
  std::vector<T> out;
  out.reserve(lanes);
  for (int seg = 0; seg < lanes; seg += segLanes)
    for (const std::vector<T>* src : {&a, &b})
      for (int blk = seg; blk < seg + segLanes; blk += blockLanes)
        for (int t = 0; t < blockLanes / 2; ++t)
          out.push_back(combine((*src)[blk + t], (*src)[blk + blockLanes / 2 + t]));
  return out;
}

// Runs all stages of a network on `inputs` (lanes vectors of lanes values each).
template <class T, class Combine>
std::vector<T> runFoldNetwork(std::vector<std::vector<T>> vecs, const std::vector<int>& blockLanes,
                              int elemBits, Combine combine) {
  for (int b : blockLanes) {
    std::vector<std::vector<T>> next;
    for (size_t m = 0; m + 1 < vecs.size(); m += 2)
      next.push_back(foldStage(vecs[m], vecs[m + 1], b, elemBits, combine));
    vecs = std::move(next);
  }
  return vecs.front();
}

}  // namespace simdgen::ir
