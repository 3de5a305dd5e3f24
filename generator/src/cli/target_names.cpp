// SPDX-License-Identifier: Apache-2.0
#include "cli/target_names.h"

#include <algorithm>
#include <vector>

#include "core/isa.h"
#include "targets/all_targets.h"

namespace simdgen::cli {

namespace {

// "avx2+fma+avx_vnni" -> "avx2+avx_vnni+fma": the spec spelling lists features sorted.
std::string canonicalSpelling(const std::string& typed) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t plus = typed.find('+', start);
    parts.push_back(typed.substr(start, plus - start));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  std::sort(parts.begin() + 1, parts.end());
  std::string s = parts[0];
  for (size_t k = 1; k < parts.size(); ++k) s += "+" + parts[k];
  return s;
}

}  // namespace

bool namesTarget(const std::string& typed, const Target& t) {
  return !typed.empty() && (typed == t.suffix || canonicalSpelling(typed) == t.spelling);
}

bool knownTarget(const std::string& typed) {
  const std::vector<Target> all = allTargets();
  return std::any_of(all.begin(), all.end(), [&](const Target& t) { return namesTarget(typed, t); });
}

std::string validTargets() {
  std::string s;
  for (const IsaInfo& isa : isaRegistry()) {
    s += (s.empty() ? "" : ", ") + std::string(isa.name);
    for (const IsaFeature& f : isa.features) s += "[+" + std::string(f.name) + "]";
  }
  return s;
}

}  // namespace simdgen::cli
