// SPDX-License-Identifier: Apache-2.0
#include "targets/all_targets.h"

#include <algorithm>
#include <stdexcept>

#include "core/isa.h"

namespace simdgen {

std::vector<Target> allTargets() {
  std::vector<Target> all;
  for (const IsaInfo& isa : isaRegistry()) {
    const size_t n = isa.features.size();
    for (size_t mask = 0; mask < (size_t{1} << n); ++mask) {
      TargetRequest r{std::string(isa.name), {}};
      for (size_t k = 0; k < n; ++k)
        if (mask & (size_t{1} << k)) r.features.emplace_back(isa.features[k].name);
      std::sort(r.features.begin(), r.features.end());
      try {
        all.push_back(makeTarget(r));
      } catch (const std::invalid_argument&) {
        // a combination the factory refuses is no target
      }
    }
  }
  return all;
}

}  // namespace simdgen
