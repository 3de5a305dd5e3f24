// SPDX-License-Identifier: Apache-2.0
// Row fillers for arg_reduce tests: a base (random, constant, ramp) with values planted at
// positions, and pattern labels naming them.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "arg_runner.h"

namespace simdgen_exec::arg_reduce {

// A value at a position: `at` < 0 counts from the end (-1 = the last element).
template <class T>
struct Plant {
  int64_t at;
  T value;
};

template <class T>
RowFill<T> constant(T c) {
  return [c](T* row, int64_t n, int64_t, Rng&) { std::fill(row, row + n, c); };
}

// Random values that lose to Values::win().
template <class T>
RowFill<T> background(const Values<T>& v) {
  return [v](T* row, int64_t n, int64_t, Rng& rng) {
    for (int64_t j = 0; j < n; ++j) row[j] = v.background(rng);
  };
}

// Any value generator g(rng), element by element.
template <class T, class G>
RowFill<T> each(G g) {
  return [g](T* row, int64_t n, int64_t, Rng& rng) {
    for (int64_t j = 0; j < n; ++j) row[j] = g(rng);
  };
}

// `base`, then the plants that fall inside the row.
template <class T>
RowFill<T> planted(RowFill<T> base, std::vector<Plant<T>> plants) {
  return [base = std::move(base), plants = std::move(plants)](T* row, int64_t n, int64_t r, Rng& rng) {
    base(row, n, r, rng);
    for (const Plant<T>& p : plants)
      if (const int64_t j = p.at < 0 ? n + p.at : p.at; j >= 0 && j < n) row[j] = p.value;
  };
}

// Plants of one value at several positions.
template <class T>
std::vector<Plant<T>> at(std::initializer_list<int64_t> positions, T value) {
  std::vector<Plant<T>> v;
  for (int64_t p : positions) v.push_back({p, value});
  return v;
}

// "name(1,-1)": a label listing positions.
inline std::string label(const std::string& name, const std::vector<int64_t>& positions) {
  std::string s = name + "(";
  for (size_t i = 0; i < positions.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(positions[i]);  // not `"," + ...`: GCC 12 warns falsely (-Wrestrict, bug 105329)
  }
  return s + ")";
}

}  // namespace simdgen_exec::arg_reduce
