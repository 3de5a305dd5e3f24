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

void checkOutputs(const KernelSpec& spec, const std::vector<std::vector<unsigned char>>& mem, int64_t rows, int64_t cols, int64_t rowStride,
                  const std::vector<int64_t>& inputRowStride, const std::vector<int64_t>& inputStride,
                  const std::map<std::string, simdgen_ref::map::Value>& scalars, const std::vector<int64_t>& outputStride) {
  std::map<std::string, simdgen_ref::map::DType> names;
  for (const MapInputName& p : spec.mapParams) names[p.name] = simdgen_ref::map::DType::parse(std::string(nameOf(p.dtype)));
  for (const MapInputName& in : spec.mapInputs) names[in.name] = simdgen_ref::map::DType::parse(std::string(nameOf(in.dtype)));
  for (size_t o = 0; o < spec.mapOutputs.size(); ++o) {
    const auto dt = simdgen_ref::map::DType::parse(std::string(nameOf(spec.mapOutputs[o].dtype)));
    const simdgen_ref::map::Expression e(spec.mapOutputs[o].exprText, names, dt);
    const auto& out = mem[spec.mapInputs.size() + o];
    std::vector<bool> element(out.size(), false);  // bytes that belong to an element
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const auto want = e.eval([&](const std::string& name) {
          if (scalars.count(name)) return scalars.at(name);
          for (size_t k = 0; k < spec.mapInputs.size(); ++k)
            if (spec.mapInputs[k].name == name)
              return simdgen_ref::map::read(names[name], mem[k].data(), r * inputRowStride[k] + c * inputStride[k]);
          throw std::logic_error(name);
        });
        const int64_t at = r * rowStride + c * (outputStride.empty() ? 1 : outputStride[o]);
        const auto got = simdgen_ref::map::read(dt, out.data(), at);
        const bool same = dt.is_float() ? (got.f == want.f || (got.f != got.f && want.f != want.f)) : got.u == want.u;
        REQUIRE_MESSAGE(same, spec.mapOutputs[o].name << "[" << r << ", " << c << "] of " << rows << " x " << cols);
        for (int b = 0; b < dt.bits / 8; ++b) element[size_t(at * dt.bits / 8 + b)] = true;
      }
    for (size_t b = 0; b < out.size(); ++b)
      if (!element[b]) REQUIRE_MESSAGE(out[b] == 0xA5, spec.mapOutputs[o].name << ": byte " << b << " written, no element's");
  }
}

void checkOutputs(const KernelSpec& spec, const std::vector<std::vector<unsigned char>>& mem, int64_t n, const std::vector<int64_t>& stride,
                  const std::map<std::string, simdgen_ref::map::Value>& scalars) {
  checkOutputs(spec, mem, 1, n, n, std::vector<int64_t>(stride.size(), 0), stride, scalars);
}

namespace {

// Random bytes for the inputs (0x80 often: the sign bit alone, -0.0's high byte), 0xA5 in the outputs.
void fillBytes(const ir::Plan& plan, std::vector<std::vector<unsigned char>>& mem, std::mt19937_64& rng) {
  for (size_t k = 0; k < plan.tensors.size(); ++k)
    for (auto& b : mem[k]) b = plan.tensors[k].output ? 0xA5 : static_cast<unsigned char>(rng() % 7 == 0 ? 0x80 : rng());
}

// Scalar params: one random value each, bound by its bytes (the interpreter's convention).
std::map<std::string, simdgen_ref::map::Value> bindScalars(const KernelSpec& spec, std::mt19937_64& rng, std::map<std::string, int64_t>& bindings) {
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
  return scalars;
}

int64_t bytesOfTensor(const ir::Tensor& t, int64_t elements) {
  return elements * simdgen_ref::map::DType::parse(std::string(nameOf(t.dtype))).bits / 8;
}

}  // namespace

void checkMapPlan(const std::string& text, int bits, int64_t n, uint64_t seed) {
  const KernelSpec spec = parseSpecText(text, "t.json");
  const ir::Plan plan = buildPlan(spec, makeGenericTarget(bits));
  CAPTURE(bits);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<unsigned char>> mem;
  std::vector<sim::Buffer> buffers;
  for (const ir::Tensor& t : plan.tensors) mem.emplace_back(size_t(bytesOfTensor(t, n) + 1));
  fillBytes(plan, mem, rng);
  for (size_t k = 0; k < plan.tensors.size(); ++k) {
    const ir::Tensor& t = plan.tensors[k];
    buffers.push_back({t.name, t.output ? nullptr : mem[k].data(), t.output ? mem[k].data() : nullptr, size_t(n)});
  }
  std::map<std::string, int64_t> bindings{{"n", n}};
  const auto scalars = bindScalars(spec, rng, bindings);
  sim::runPlan(plan, bindings, buffers, 1);
  checkOutputs(spec, mem, n, std::vector<int64_t>(spec.mapInputs.size(), 1), scalars);
}

void checkMapPlan2D(const std::string& text, int bits, int64_t rows, int64_t cols, int64_t pad, uint64_t seed) {
  const KernelSpec spec = parseSpecText(text, "t.json");
  REQUIRE(spec.rank == 2);
  const ir::Plan plan = buildPlan(spec, makeGenericTarget(bits));
  CAPTURE(bits);
  CAPTURE(rows);
  CAPTURE(cols);
  std::mt19937_64 rng(seed);
  // Runtime values by their spec names: the extents, the row stride, then the inputs' strides.
  std::map<std::string, int64_t> value;
  auto eval = [&](const Extent& e, int64_t runtime) {
    if (e.isStatic()) return *e.value;
    return value.try_emplace(e.name, runtime).first->second;  // a name met before keeps its value
  };
  REQUIRE(eval(spec.rows, rows) == rows);
  REQUIRE(eval(spec.cols, cols) == cols);
  const int64_t rowStride = spec.rowStride ? eval(*spec.rowStride, cols + pad) : cols;
  const int64_t choices[] = {0, 1, 2, 3, 7, rows + 1};
  std::vector<int64_t> inRowStride, inStride;
  for (const MapInputLayout& l : spec.mapInputLayouts) {
    inStride.push_back(l.stride ? eval(*l.stride, choices[rng() % 6]) : 1);
    inRowStride.push_back(l.rowStride ? eval(*l.rowStride, choices[rng() % 6]) : rowStride * inStride.back());
  }
  std::vector<std::vector<unsigned char>> mem;
  std::vector<sim::Buffer> buffers;
  const bool any = rows > 0 && cols > 0;
  for (size_t k = 0; k < plan.tensors.size(); ++k) {
    const ir::Tensor& t = plan.tensors[k];
    const int64_t span = !any ? 0 : t.output ? (rows - 1) * rowStride + cols : (rows - 1) * inRowStride[k] + (cols - 1) * inStride[k] + 1;
    mem.emplace_back(size_t(bytesOfTensor(t, span) + 16));  // and 16 bytes no element has
    buffers.push_back({t.name, t.output ? nullptr : mem[k].data(), t.output ? mem[k].data() : nullptr, size_t(span)});
  }
  fillBytes(plan, mem, rng);
  std::map<std::string, int64_t> bindings;
  for (const ir::Param& p : plan.params) {
    if (p.kind != ir::Param::Kind::extent) continue;
    CAPTURE(p.publicName);
    REQUIRE(value.count(p.publicName));
    bindings[p.name] = value.at(p.publicName);
  }
  const auto scalars = bindScalars(spec, rng, bindings);
  sim::runPlan(plan, bindings, buffers, 1);
  checkOutputs(spec, mem, rows, cols, rowStride, inRowStride, inStride, scalars);
}

}  // namespace simdgen::testing
