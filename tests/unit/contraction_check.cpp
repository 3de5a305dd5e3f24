// SPDX-License-Identifier: Apache-2.0
// Runs every plan of a contraction spec in the interpreter against a double-precision loop over
// the spec's definition (the contraction unit tests: families and schedules).
#include "contraction_check.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen::testing {

namespace {

// One tensor's memory in the test: its layout, the values (data) and, for an operand stored as
// bf16, the bits the kernel reads (data: their values).
template <class T>
struct Mem : TensorLayout {
  std::vector<T> data;
  std::vector<uint16_t> bf16;
};

// x rounded to the nearest bfloat16 (ties to even), as its bits: the upper half of the f32 (no
// NaN here).
uint16_t bf16Bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float bf16Value(uint16_t bits) {
  const uint32_t u = uint32_t(bits) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
}  // namespace

int64_t TensorLayout::offset(const ContractionTensor& t, const std::vector<int64_t>& point) const {
  int64_t o = 0;
  for (size_t q = 0; q < t.index.size(); ++q) {
    int64_t v = t.index[q].constant;
    for (const auto& term : t.index[q].terms) v += term.coef * point[size_t(term.dim)];
    o += v * strides[q];
  }
  if (t.packBlock) {  // blocked along the last position (ContractionTensor::packBlock), written independently of the builder
    const int64_t c = point[size_t(t.index.back().plainDim())];
    o += c / t.packBlock * (blockStride - t.packBlock);
  }
  return o;
}

bool TensorLayout::inside(const ContractionTensor& t, const std::vector<int64_t>& point) const {
  for (size_t q = 0; q < t.index.size(); ++q) {
    int64_t v = t.index[q].constant;
    for (const auto& term : t.index[q].terms) v += term.coef * point[size_t(term.dim)];
    if (v < 0 || v >= extents[q]) return false;
  }
  return true;
}

TensorLayout layoutOf(const ContractionTensor& t, const std::vector<int64_t>& ext, std::map<std::string, int64_t>& runtime, std::mt19937_64& rng) {
  TensorLayout m;
  for (const AffineIndex& ix : t.index) {
    int64_t e = ix.constant + 1;
    for (const auto& term : ix.terms) e += term.coef * (ext[size_t(term.dim)] - 1);
    m.extents.push_back(std::max<int64_t>(e, 0));
  }
  for (size_t q = 0; q < t.extents.size(); ++q)  // a padded operand: its own extents (numbers or the dims' names)
    m.extents[q] = t.extents[q].isStatic() ? *t.extents[q].value : runtime.at(t.extents[q].name);
  m.strides.assign(t.index.size(), 0);
  int64_t dense = 1;
  for (size_t q = t.index.size(); q-- > 0;) {
    if (t.strides.empty()) {
      m.strides[q] = dense;
    } else if (t.strides[q]->isStatic()) {
      m.strides[q] = *t.strides[q]->value;
    } else {  // a runtime stride: at least dense, plus padding
      const std::string& name = t.strides[q]->name;
      if (!runtime.count(name)) runtime[name] = dense + int64_t(rng() % 5);
      m.strides[q] = runtime[name];
    }
    dense = m.strides[q] * std::max<int64_t>(t.packBlock && q + 1 == t.index.size() ? t.packBlock : m.extents[q], 1);
  }
  m.span = 1;
  for (size_t q = 0; q < m.extents.size(); ++q) m.span += (m.extents[q] - 1) * m.strides[q];
  if (t.packBlock) {  // whole blocks of the dense in-block layout
    m.blockStride = dense;
    m.span = (m.extents.back() + t.packBlock - 1) / t.packBlock * dense;
  }
  m.span = std::max<int64_t>(m.span, 1);
  return m;
}

std::vector<const ContractionTensor*> planTensors(const ContractionSpec& c) {
  std::vector<const ContractionTensor*> tensors{&c.operands[0], &c.operands[1]};
  if (c.init == ContractionInit::operand) tensors.push_back(&c.initOperand);
  for (const EpilogueStep& e : c.epilogue)
    if (e.kind == EpilogueStep::Kind::add) tensors.push_back(&e.operand);
  tensors.push_back(&c.output);
  return tensors;
}

std::vector<Target> checkTargets(const ContractionSpec& c) {
  std::vector<Target> targets;
  for (int bits : {128, 256, 512, 1024, 2048}) targets.push_back(makeGenericTarget(bits));
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) {
    TargetRequest r{isa, {}};
    if (std::string(isa) == "avx2") r.features = {"fma"};
    targets.push_back(makeTarget(r));
  }
  targets.push_back(makeTarget(TargetRequest{"avx2", {}}));  // no FMA: multiplies and adds
  // avx512+bf16, neon+bf16 and sve+bf16 plans differ from the plain ones only for bf16 operands
  // (vdpbf16ps, rounded to nearest, and bfdot, rounded to odd, on pairs).
  if (c.operands[0].bf16 || c.operands[1].bf16)
    for (const char* isa : {"avx512", "neon", "sve"}) targets.push_back(makeTarget(TargetRequest{isa, {"bf16"}}));
  // avx512+vnni, avx2+avx_vnni, neon+i8mm, neon+dotprod and sve+i8mm plans differ from the plain
  // ones only for byte operands (vpdpbusd and usdot on u8 x i8 quads, sdot/udot on i8 x i8 and u8 x u8 ones).
  if (c.operands[0].narrow && c.operands[1].narrow && bitsOf(*c.operands[0].narrow) == 8 && bitsOf(*c.operands[1].narrow) == 8)
    for (const TargetRequest& r : {TargetRequest{"avx512", {"vnni"}}, TargetRequest{"avx2", {"avx_vnni"}}, TargetRequest{"neon", {"dotprod"}},
                                   TargetRequest{"neon", {"i8mm"}}, TargetRequest{"sve", {"i8mm"}}})
      targets.push_back(makeTarget(r));
  return targets;
}

std::string withBf16Operands(std::string body, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    const std::string key = "{\"name\": \"" + n + "\", ";
    const size_t at = body.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, "no tensor " << n << " in the spec body");
    body.insert(at + key.size(), "\"dtype\": \"bf16\", ");
  }
  return body;
}

// checkPlans for element type T: float (f32 sums, of f32 or bf16 operands) or double (f64).
template <class T>
void checkPlansOf(const KernelSpec& s, const std::map<std::string, int64_t>& sizes, uint64_t seed) {
  const ContractionSpec& c = s.contraction;
  std::mt19937_64 rng(seed);
  std::vector<int64_t> ext;
  for (const ContractionDim& d : c.dims) ext.push_back(d.extent.isStatic() ? *d.extent.value : sizes.at(d.extent.name));
  std::map<std::string, int64_t> runtime;  // public name -> value
  for (const auto& [k, v] : sizes) runtime[k] = v;
  const std::vector<const ContractionTensor*> tensors = planTensors(c);
  std::vector<Mem<T>> mem(tensors.size());
  for (size_t k = 0; k < tensors.size(); ++k) {
    const ContractionTensor& t = *tensors[k];
    Mem<T>& m = mem[k];
    static_cast<TensorLayout&>(m) = layoutOf(t, ext, runtime, rng);
    m.data.assign(size_t(m.span), T(0));
    const bool out = k + 1 == tensors.size();
    for (T& x : m.data) x = out && c.init != ContractionInit::output ? T(-777) : T(int64_t(rng() % 2001) - 1000) / T(256);
    if (t.bf16) {  // values a bf16 holds (8 significant bits, some of these round), and their bits
      for (T& x : m.data) x = bf16Value(m.bf16.emplace_back(bf16Bits(float(x) * 1.0078125f)));
    }
  }
  const std::vector<T> before = mem.back().data;
  float scale = 1.0f;
  std::map<std::string, T> scalars;
  for (const EpilogueStep& e : c.epilogue)
    if ((e.kind == EpilogueStep::Kind::scale || e.kind == EpilogueStep::Kind::div) && !e.param.empty())
      scalars[e.param] = T(int64_t(rng() % 9) - 4) / T(4) + T(0.125);  // never 0

  // The reference: every output point, in double.
  std::vector<double> want(mem.back().data.size()), bound(mem.back().data.size());
  std::vector<char> written(mem.back().data.size(), 0);
  std::vector<int64_t> point(ext.size(), 0);
  std::function<void(size_t)> parallel = [&](size_t d) {
    if (d < ext.size() && c.dims[d].reduction) return parallel(d + 1);
    if (d < ext.size()) {
      for (point[d] = 0; point[d] < ext[d]; ++point[d]) parallel(d + 1);
      point[d] = 0;
      return;
    }
    auto at = [&](size_t k) { return mem[k].offset(*tensors[k], point); };
    const int64_t o = at(tensors.size() - 1);
    double sum = 0, abs = 0;
    if (c.init == ContractionInit::output) sum = before[size_t(o)];
    if (c.init == ContractionInit::operand) sum = mem[2].data[size_t(at(2))];
    abs = std::fabs(sum);
    int64_t terms = 1;
    std::function<void(size_t)> reduce = [&](size_t r) {
      if (r < ext.size() && !c.dims[r].reduction) return reduce(r + 1);
      if (r < ext.size()) {
        for (point[r] = 0; point[r] < ext[r]; ++point[r]) reduce(r + 1);
        point[r] = 0;
        return;
      }
      // A padded operand's read outside its extents is a zero: the product is +-0 (finite data).
      if (!mem[0].inside(*tensors[0], point) || !mem[1].inside(*tensors[1], point)) return void(++terms);
      const double p = double(mem[0].data[size_t(at(0))]) * mem[1].data[size_t(at(1))];
      sum += p, abs += std::fabs(p), ++terms;
    };
    reduce(0);
    // Any order of binary32 sums and FMAs: |error| <= gamma_n * sum |terms| (n = terms), and
    // each epilogue step is 1-Lipschitz (relu, clamp), scales the error (scale) or adds one
    // rounding (scale, add).
    const double u = std::ldexp(1.0, -std::numeric_limits<T>::digits);
    double err = terms * u / (1 - terms * u) * abs;
    size_t added = c.init == ContractionInit::operand ? 3 : 2;
    for (const EpilogueStep& e : c.epilogue) {
      switch (e.kind) {
        case EpilogueStep::Kind::relu: sum = sum > 0 ? sum : 0; break;
        case EpilogueStep::Kind::clamp: sum = std::min(std::max(sum, std::stod(e.lo)), std::stod(e.hi)); break;
        case EpilogueStep::Kind::scale: {
          const double f = e.param.empty() ? std::stod(e.factor) : scalars[e.param];
          sum *= f, err = err * std::fabs(f) + u * std::fabs(sum);
          break;
        }
        case EpilogueStep::Kind::div: {
          const double f = e.param.empty() ? std::stod(e.factor) : scalars[e.param];
          sum /= f, err = err / std::fabs(f) + u * std::fabs(sum);
          break;
        }
        case EpilogueStep::Kind::add: sum += mem[added++].data[size_t(at(added - 1))], err += u * std::fabs(sum); break;
      }
    }
    want[size_t(o)] = sum;
    bound[size_t(o)] = err + u * std::fabs(sum) + 1e-30;
    written[size_t(o)] = 1;
  };
  parallel(0);

  for (const Target& target : checkTargets(c)) {
    const ir::Plan plan = buildPlan(s, target);
    for (int vscale : target.scalable ? std::vector<int>{1, 2, 4, 16} : std::vector<int>{1}) {
      CAPTURE(target.spelling);
      CAPTURE(vscale);
      std::map<std::string, int64_t> params;
      for (const ir::Param& p : plan.params) {
        if (p.kind == ir::Param::Kind::extent) params[p.name] = runtime.at(p.publicName);
        if (p.kind == ir::Param::Kind::scalar) {
          int64_t bits = 0;
          std::memcpy(&bits, &scalars.at(p.publicName), sizeof(T));
          params[p.name] = bits;
        }
      }
      std::vector<T> out = before;
      std::vector<sim::Buffer> buffers;
      for (size_t k = 0; k + 1 < tensors.size(); ++k) {
        if (tensors[k]->bf16) buffers.push_back({plan.tensors[k].name, mem[k].bf16.data(), nullptr, mem[k].bf16.size()});
        else buffers.push_back({plan.tensors[k].name, mem[k].data.data(), nullptr, mem[k].data.size()});
      }
      buffers.push_back({"out", out.data(), out.data(), out.size()});  // init "output" reads it
      sim::runPlan(plan, params, buffers, vscale);
      for (size_t e = 0; e < out.size(); ++e) {
        if (!written[e]) {
          REQUIRE_MESSAGE(std::memcmp(&out[e], &before[e], sizeof(T)) == 0, "element " << e << " outside the output was written");
          continue;
        }
        REQUIRE_MESSAGE(std::fabs(out[e] - want[e]) <= bound[e], "element " << e << ": got " << out[e] << ", want " << want[e] << " +- " << bound[e]);
      }
    }
  }
}

void checkPlans(const std::string& text, const std::map<std::string, int64_t>& sizes, uint64_t seed) {
  const KernelSpec s = parseSpecText(text, "t.json");
  if (s.contraction.dtype == DType::f64) return checkPlansOf<double>(s, sizes, seed);
  REQUIRE(s.contraction.dtype == DType::f32);  // i32: checkIntPlans
  checkPlansOf<float>(s, sizes, seed);
}

}  // namespace simdgen::testing
