// SPDX-License-Identifier: Apache-2.0
#include "cli/explain_json.h"

#include <nlohmann/json.hpp>

namespace simdgen::cli {

namespace {

using nlohmann::json;

json indices(const std::vector<ir::Index>& v) {
  json a = json::array();
  for (const auto& i : v) a.push_back(i.str());
  return a;
}

}  // namespace

std::string explainJson(const emit::GeneratedKernel& g, const std::string& target) {
  const ir::Plan& plan = g.variants.back().plan;  // the plainest variant: the kernel-level facts
  json j;
  j["kernel"] = plan.kernel;
  j["family"] = plan.family;
  j["strategy"] = plan.strategy;
  j["tensors"] = json::array();
  for (const ir::Tensor& t : plan.tensors)
    if (!t.scratch)  // a local array, not a parameter
    j["tensors"].push_back({{"name", t.name},
                            {"dtype", std::string(nameOf(t.dtype))},
                            {"output", t.output},
                            {"extents", indices(t.extents)},
                            {"strides", indices(t.strides)}});
  for (size_t k = 0, listed = 0; k < plan.tensors.size(); ++k) {  // blocked tensors: see ir::Tensor
    const ir::Tensor& t = plan.tensors[k];
    if (t.scratch) continue;
    if (t.block) {
      j["tensors"][listed]["block"] = t.block;
      j["tensors"][listed]["block_stride"] = t.blockStride.str();
    }
    ++listed;
  }
  j["params"] = json::array();
  for (const ir::Param& p : plan.params) {
    const char* kind = p.kind == ir::Param::Kind::tensor ? "tensor" : p.kind == ir::Param::Kind::extent ? "extent" : "scalar";
    j["params"].push_back({{"name", p.name}, {"public_name", p.publicName}, {"kind", kind}, {"tensor", p.tensor}});
    if (p.kind == ir::Param::Kind::scalar) j["params"].back()["dtype"] = std::string(nameOf(p.dtype));
  }
  j["semantics"] = json::object();
  for (const auto& [key, value] : plan.semantics) j["semantics"][key] = value;
  j["constants"] = json::object();
  for (const auto& [name, value] : plan.constants) j["constants"][name] = value;
  j["variants"] = json::array();
  for (const auto& v : g.variants) {
    if (!target.empty() && v.target.spelling != target) continue;
    j["variants"].push_back({{"target", v.target.spelling},
                             {"suffix", v.target.suffix},
                             {"cpu_check", v.target.cpuCheck},
                             {"vector_bits", v.plan.vectorBits},
                             {"scalable", v.plan.scalable},
                             {"notes", v.notes},
                             {"plan", v.plan.print()}});
  }
  j["dropped"] = g.dropped;
  if (!g.parallel.empty()) j["parallel"] = g.parallel;
  return j.dump(2) + "\n";
}

}  // namespace simdgen::cli
