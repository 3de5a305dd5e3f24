// SPDX-License-Identifier: Apache-2.0
// Draws from a fixed seed for the random spec tests (test_contraction_random.cpp,
// test_map_random.cpp): the same seed gives the same specs on every machine.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace simdgen::testing {

class Draw {
 public:
  explicit Draw(uint64_t seed) : rng_(seed) {}
  int64_t below(int64_t n) { return int64_t(rng_() % uint64_t(n)); }
  bool chance(int percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[size_t(below(int64_t(v.size())))]; }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t k = v.size(); k > 1; --k) std::swap(v[k - 1], v[size_t(below(int64_t(k)))]);
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace simdgen::testing
