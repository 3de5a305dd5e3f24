// SPDX-License-Identifier: Apache-2.0
// Row lengths worth testing in arg_reduce kernels (shapes are fitted by simdgen_exec::fit).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace simdgen_exec::arg_reduce {

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

}  // namespace simdgen_exec::arg_reduce
