// SPDX-License-Identifier: Apache-2.0
#include "cli/list.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "core/dtype.h"
#include "core/isa.h"
#include "emit/lowering.h"
#include "plan/family.h"

namespace simdgen::cli {

int runList(bool json) {
  nlohmann::json j;
  j["targets"] = nlohmann::json::array();
  for (const IsaInfo& isa : isaRegistry()) {
    nlohmann::json t{{"isa", isa.name},
                     {"vector_bits", isa.vectorBits},
                     {"attribute", isa.attribute},
                     {"cpu_check", isa.cpuCheck},
                     {"features", nlohmann::json::array()}};
    // What code testing for the ISA needs: the preprocessor condition of its architecture and the
    // statement that must run before cpu_check.
    const emit::IsaLowering* module = emit::loweringFor(isa.module);
    t["arch_guard"] = module ? module->archGuard() : "";
    t["cpu_init"] = module ? module->dispatchInit() : "";
    t["cpu_support"] = module ? module->cpuSupport() : "";
    for (const IsaFeature& f : isa.features)
      t["features"].push_back({{"name", f.name}, {"attribute", f.attribute}, {"cpu_check", f.cpuCheck}});
    j["targets"].push_back(t);
  }
  j["default_targets"] = nlohmann::json::array();
  for (std::string_view t : defaultTargets()) j["default_targets"].push_back(t);
  j["families"] = nlohmann::json::array();
  for (const Family& f : families()) {
    nlohmann::json fam{{"kind", f.name}, {"summary", f.summary}, {"ops", nlohmann::json::array()}};
    for (std::string_view op : f.ops) fam["ops"].push_back(op);
    j["families"].push_back(fam);
  }
  j["dtypes"] = nlohmann::json::array();
  for (DType t : kAllDTypes) j["dtypes"].push_back(nameOf(t));
  if (json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "targets (spec \"targets\": ISA[+feature...]):\n";
  for (const auto& t : j["targets"]) {
    std::cout << "  " << t["isa"].get<std::string>();
    if (t["vector_bits"].get<int>()) std::cout << "  " << t["vector_bits"].get<int>() << "-bit vectors";
    if (!t["features"].empty()) {
      std::cout << "  features:";
      for (const auto& f : t["features"]) std::cout << " +" << f["name"].get<std::string>();
    }
    std::cout << "\n";
  }
  std::cout << "  default: ";
  for (size_t k = 0; k < j["default_targets"].size(); ++k) std::cout << (k ? ", " : "") << j["default_targets"][k].get<std::string>();
  std::cout << "\nfamilies (spec \"kind\") and their ops:\n";
  for (const auto& f : j["families"]) {
    std::cout << "  " << f["kind"].get<std::string>() << ": " << f["summary"].get<std::string>() << "\n    ops:";
    for (const auto& op : f["ops"]) std::cout << " " << op.get<std::string>();
    std::cout << "\n";
  }
  std::cout << "dtypes:";
  for (const auto& t : j["dtypes"]) std::cout << " " << t.get<std::string>();
  std::cout << "\n";
  return 0;
}

}  // namespace simdgen::cli
