// SPDX-License-Identifier: Apache-2.0
// The shapes a reduce kernel is run on, derived from which extents are static.
#pragma once

#include "runner.h"
#include "sweep.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <utility>
#include <vector>

namespace simdgen_test {

using simdgen_exec::Shape;

// What the kernel fixes (simdgen_exec::Extents: static value, -1 runtime, stride -2 = cols) and
// which axis it reduces.
struct Extents {
  int axis;  // 1: one output per row, 0: one output per column
  int64_t rows, cols, stride;
};

inline std::vector<int64_t> range_plus(int64_t last, std::initializer_list<int64_t> more) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i <= last; ++i) v.push_back(i);
  v.insert(v.end(), more);
  return v;
}

// Row strides to try for a given cols: contiguous, +1 (odd) and +13 when the stride is a runtime value.
inline std::vector<int64_t> strides_for(const Extents& e, int64_t cols) {
  if (e.stride == -2) return {cols};
  if (e.stride >= 0) return cols <= e.stride ? std::vector<int64_t>{e.stride} : std::vector<int64_t>{};
  return {cols, cols + 1, cols + 13};
}

// Turns (reduced, other) extent pairs into shapes, honouring static extents; each pair gets every
// stride x misalignment combination when small, otherwise one combination (rotating).
inline std::vector<Shape> expand(const Extents& e, const std::vector<std::pair<int64_t, int64_t>>& pairs,
                                 int64_t full_grid_elems) {
  std::set<std::pair<int64_t, int64_t>> seen;
  std::vector<Shape> out;
  std::size_t turn = 0;
  for (auto [reduced, other] : pairs) {
    int64_t rows = e.axis == 1 ? other : reduced, cols = e.axis == 1 ? reduced : other;
    if (e.rows >= 0) rows = e.rows;
    if (e.cols >= 0) cols = e.cols;
    if (!seen.insert({rows, cols}).second) continue;
    std::vector<Shape> combos;
    for (int64_t st : strides_for(e, cols))
      for (int mis : {0, 1}) combos.push_back({rows, cols, st, mis});
    if (combos.empty()) continue;
    if (rows * cols <= full_grid_elems) out.insert(out.end(), combos.begin(), combos.end());
    else out.push_back(combos[turn++ % combos.size()]);
  }
  return out;
}

// Every extent 0..192 (3 x 64), then `more`; the thin sweep's subset of them.
inline std::vector<int64_t> grid_extents(std::initializer_list<int64_t> more) {
  return simdgen_exec::thin_sweep() ? simdgen_exec::thin_lengths(192, more) : range_plus(192, more);
}

// Main grid: every reduced extent 0..192 plus larger ones against odd other extents, then every
// other extent 0..192 (+ larger) against a few reduced extents.
inline std::vector<Shape> main_shapes(const Extents& e) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t r : grid_extents({255, 256, 257, 383, 384, 385, 511, 512, 513, 1000, 4099}))
    for (int64_t o : {1, 3, 7, 17, 33}) pairs.push_back({r, o});
  for (int64_t o : grid_extents({255, 256, 257, 511, 512, 513, 1000}))
    for (int64_t r : {0, 1, 3, 7, 17, 33}) pairs.push_back({r, o});
  return expand(e, pairs, 2048);
}

// Guard-page grid: tail lengths around vector multiples in cols, a few row counts.
inline std::vector<Shape> guard_shapes(const Extents& e) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t c : range_plus(17, {31, 32, 33, 47, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 257}))
    for (int64_t r : {0, 1, 2, 3, 5, 17}) pairs.push_back(e.axis == 1 ? std::pair{c, r} : std::pair{r, c});
  std::vector<Shape> out;
  for (Shape s : expand(e, pairs, 1 << 30))
    if (s.misalign == 0 && (e.stride >= 0 || s.stride <= s.cols + 1)) out.push_back(s);  // guard fixes placement
  return out;
}

}  // namespace simdgen_test
