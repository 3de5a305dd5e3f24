// Shapes for arg_reduce tests: a requested (rows, cols, stride) made to fit the spec's static
// extents, and the row lengths worth testing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

namespace simdgen_arg_test {

struct Shape {
  int64_t rows, cols, stride;
  int misalign;  // input and output pointer offset, in elements, from a 64-byte boundary

  int64_t span() const { return rows > 0 ? (rows - 1) * stride + cols : 0; }  // elements read
};

// What the spec fixes: a static extent, or -1 for a runtime one; stride -2 = cols (no row_stride).
// Rank 1 is rows = 1.
struct Extents {
  int64_t rows, cols, stride;
};

// The shape actually run for a request of `rows` x `cols` with stride cols + `pad`: static extents
// win. None when a static row_stride is shorter than cols.
inline std::optional<Shape> fit(const Extents& e, int64_t rows, int64_t cols, int64_t pad, int misalign) {
  if (e.rows >= 0) rows = e.rows;
  if (e.cols >= 0) cols = e.cols;
  int64_t stride = cols + pad;
  if (e.stride == -2) stride = cols;
  else if (e.stride >= 0) stride = e.stride;
  if (stride < cols) return std::nullopt;
  return Shape{rows, cols, stride, misalign};
}

inline std::vector<int64_t> upto(int64_t last, std::initializer_list<int64_t> more = {}) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i <= last; ++i) v.push_back(i);
  v.insert(v.end(), more);
  return v;
}

// Every tail length 0..200, then lengths around powers of two, blocks and beyond.
inline std::vector<int64_t> all_lengths(int64_t block) {
  auto v = upto(200, {255, 256, 257, 511, 512, 513, 999, 1000, 1001, 2047, 2048, 2049, 4097, 8191,
                      8192, 8193, 20000, block - 1, block, block + 1, 2 * block + 3});
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// A sample of them for the costlier patterns: small tails, vector multiples +-1, block edges.
inline std::vector<int64_t> some_lengths(int64_t block) {
  auto v = upto(33, {47, 48, 49, 63, 64, 65, 95, 127, 128, 129, 255, 256, 257, 1000, 2049, 8193,
                     block - 1, block, block + 1, 2 * block + 3});
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace simdgen_arg_test
