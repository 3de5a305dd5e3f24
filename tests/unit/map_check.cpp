// SPDX-License-Identifier: Apache-2.0
// Runs a map plan in the interpreter against the independent reference (tests/reference/map_reference.h).
#include "map_check.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "../reference/map_reference.h"
#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen::testing {

void checkOutputs(const KernelSpec& spec, const std::vector<std::vector<unsigned char>>& mem, int64_t n, const std::vector<int64_t>& stride,
                  const std::map<std::string, simdgen_ref::map::Value>& scalars) {
  std::map<std::string, simdgen_ref::map::DType> names;
  for (const MapInputName& p : spec.mapParams) names[p.name] = simdgen_ref::map::DType::parse(std::string(nameOf(p.dtype)));
  for (const MapInputName& in : spec.mapInputs) names[in.name] = simdgen_ref::map::DType::parse(std::string(nameOf(in.dtype)));
  for (size_t o = 0; o < spec.mapOutputs.size(); ++o) {
    const auto dt = simdgen_ref::map::DType::parse(std::string(nameOf(spec.mapOutputs[o].dtype)));
    const simdgen_ref::map::Expression e(spec.mapOutputs[o].exprText, names, dt);
    const auto& out = mem[spec.mapInputs.size() + o];
    for (int64_t i = 0; i < n; ++i) {
      const auto want = e.eval([&](const std::string& name) {
        if (scalars.count(name)) return scalars.at(name);
        for (size_t k = 0; k < spec.mapInputs.size(); ++k)
          if (spec.mapInputs[k].name == name) return simdgen_ref::map::read(names[name], mem[k].data(), i * stride[k]);
        throw std::logic_error(name);
      });
      const auto got = simdgen_ref::map::read(dt, out.data(), i);
      const bool same = dt.is_float() ? (got.f == want.f || (got.f != got.f && want.f != want.f)) : got.u == want.u;
      REQUIRE_MESSAGE(same, spec.mapOutputs[o].name << "[" << i << "] of " << n);
    }
    CHECK(out[size_t(n * dt.bits / 8)] == 0xA5);  // nothing written past the end
  }
}

void checkMapPlan(const std::string& text, int bits, int64_t n, uint64_t seed) {
  const KernelSpec spec = parseSpecText(text, "t.json");
  const ir::Plan plan = buildPlan(spec, makeGenericTarget(bits));
  CAPTURE(bits);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<unsigned char>> mem;
  std::vector<sim::Buffer> buffers;
  std::map<std::string, const std::vector<unsigned char>*> byName;
  for (const ir::Tensor& t : plan.tensors) {
    const auto dt = simdgen_ref::map::DType::parse(std::string(nameOf(t.dtype)));
    mem.emplace_back(size_t(n * dt.bits / 8 + 1));
    for (auto& b : mem.back()) b = t.output ? 0xA5 : static_cast<unsigned char>(rng() % 7 == 0 ? 0x80 : rng());
  }
  for (size_t k = 0; k < plan.tensors.size(); ++k) {
    const ir::Tensor& t = plan.tensors[k];
    buffers.push_back({t.name, t.output ? nullptr : mem[k].data(), t.output ? mem[k].data() : nullptr, size_t(n)});
  }
  // Scalar params: one random value each, bound by its bytes (the interpreter's convention).
  std::map<std::string, int64_t> bindings{{"n", n}};
  std::map<std::string, simdgen_ref::map::Value> scalars;
  for (size_t k = 0; k < spec.mapParams.size(); ++k) {
    const auto dt = simdgen_ref::map::DType::parse(std::string(nameOf(spec.mapParams[k].dtype)));
    simdgen_ref::map::Value v;
    if (dt.is_float()) v.f = simdgen_ref::map::round_to(dt, double(int64_t(rng() % 2001) - 1000) / 64);
    else v.u = simdgen_ref::map::wrap(dt, rng());
    int64_t bits = 0;
    simdgen_ref::map::write(dt, &bits, 0, v);
    scalars[spec.mapParams[k].name] = simdgen_ref::map::read(dt, &bits, 0);
    bindings["scalar" + std::to_string(k)] = bits;
  }
  sim::runPlan(plan, bindings, buffers, 1);
  checkOutputs(spec, mem, n, std::vector<int64_t>(spec.mapInputs.size(), 1), scalars);
}


}  // namespace simdgen::testing
