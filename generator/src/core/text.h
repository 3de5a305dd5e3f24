// SPDX-License-Identifier: Apache-2.0
// Small text helpers shared by the generator's writers.
#pragma once

#include <string>
#include <vector>

namespace simdgen {

// The parts with `sep` between each two (an empty part keeps its separators).
inline std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? sep : "") + parts[k];
  return out;
}

}  // namespace simdgen
