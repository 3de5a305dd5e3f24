// SPDX-License-Identifier: Apache-2.0
// Runs every plan of an i32 contraction spec in the interpreter against the definition computed
// exactly: i32 sums wrap, so the reference is uint32_t arithmetic over the operands widened as C
// widens them (their values span each dtype's whole range, so products and sums do wrap).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "contraction_check.h"
#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"

namespace simdgen::testing {

namespace {

// One tensor's memory: the element values (as C widens them) and the bytes the kernel reads.
struct IntMem : TensorLayout {
  DType type = DType::i32;
  std::vector<int64_t> values;
  std::vector<unsigned char> bytes;
};

// Values over the whole range of t, a quarter of them its extremes and small numbers.
int64_t randomValue(DType t, std::mt19937_64& rng) {
  const int bits = bitsOf(t);
  const int64_t lo = isSigned(t) ? -(int64_t(1) << (bits - 1)) : 0, hi = isSigned(t) ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  const uint64_t r = rng();
  switch (r % 8) {
    case 0: return (r >> 8) % 2 ? lo : hi;
    case 1: return std::clamp<int64_t>(int64_t((r >> 8) % 7) - 3, lo, hi);
    default: return lo + int64_t((r >> 8) % uint64_t(hi - lo + 1));
  }
}

// Every point of the box `ext` over `dims` (the last fastest), `body` at each; none when empty.
template <class F>
void forEach(std::vector<int64_t>& x, const std::vector<size_t>& dims, const std::vector<int64_t>& ext, F body) {
  for (size_t d : dims)
    if (ext[d] <= 0) return;
  for (;;) {
    body();
    size_t i = dims.size();
    while (i-- > 0 && ++x[dims[i]] == ext[dims[i]]) x[dims[i]] = 0;
    if (i == SIZE_MAX) return;
  }
}

}  // namespace

void checkIntPlans(const std::string& text, const std::map<std::string, int64_t>& sizes, uint64_t seed) {
  const KernelSpec s = parseSpecText(text, "t.json");
  const ContractionSpec& c = s.contraction;
  REQUIRE(c.dtype == DType::i32);
  std::mt19937_64 rng(seed);
  std::vector<int64_t> ext;
  std::vector<size_t> par, red;
  for (size_t d = 0; d < c.dims.size(); ++d) {
    ext.push_back(c.dims[d].extent.isStatic() ? *c.dims[d].extent.value : sizes.at(c.dims[d].extent.name));
    (c.dims[d].reduction ? red : par).push_back(d);
  }
  std::map<std::string, int64_t> runtime(sizes.begin(), sizes.end());
  const std::vector<const ContractionTensor*> tensors = planTensors(c);
  std::vector<IntMem> mem(tensors.size());
  for (size_t k = 0; k < tensors.size(); ++k) {
    IntMem& m = mem[k];
    static_cast<TensorLayout&>(m) = layoutOf(*tensors[k], ext, runtime, rng);
    m.type = tensors[k]->narrow.value_or(DType::i32);
    const bool out = k + 1 == tensors.size();
    for (int64_t e = 0; e < m.span; ++e) m.values.push_back(out && c.init != ContractionInit::output ? -777 : randomValue(m.type, rng));
    m.bytes.resize(size_t(m.span) * size_t(bytesOf(m.type)));
    for (int64_t e = 0; e < m.span; ++e)  // the low bytes: truncation on a little-endian host
      std::memcpy(m.bytes.data() + e * bytesOf(m.type), &m.values[size_t(e)], size_t(bytesOf(m.type)));
  }
  std::map<std::string, int32_t> scalars;
  for (const EpilogueStep& e : c.epilogue)
    if (e.kind == EpilogueStep::Kind::scale && !e.param.empty()) scalars[e.param] = int32_t(randomValue(DType::i32, rng));

  // The reference: every output point, exactly.
  const IntMem& out = mem.back();
  std::vector<int32_t> want(size_t(out.span));
  std::vector<char> written(size_t(out.span), 0);
  std::vector<int64_t> x(ext.size(), 0);
  auto at = [&](size_t k) { return size_t(mem[k].offset(*tensors[k], x)); };
  forEach(x, par, ext, [&] {
    uint32_t sum = 0;
    if (c.init == ContractionInit::output) sum = uint32_t(out.values[at(tensors.size() - 1)]);
    if (c.init == ContractionInit::operand) sum = uint32_t(mem[2].values[at(2)]);
    forEach(x, red, ext, [&] {
      if (mem[0].inside(*tensors[0], x) && mem[1].inside(*tensors[1], x))  // a padded operand's zeros add nothing
        sum += uint32_t(uint64_t(mem[0].values[at(0)] * mem[1].values[at(1)]));
    });
    int32_t v = int32_t(sum);
    size_t added = c.init == ContractionInit::operand ? 3 : 2;
    for (const EpilogueStep& e : c.epilogue) {
      auto literal = [](const std::string& l) { return l == "(-2147483647 - 1)" ? INT32_MIN : int32_t(std::stol(l)); };
      switch (e.kind) {
        case EpilogueStep::Kind::relu: v = std::max(v, 0); break;
        case EpilogueStep::Kind::clamp: v = std::min(std::max(v, literal(e.lo)), literal(e.hi)); break;
        case EpilogueStep::Kind::scale: v = int32_t(uint32_t(v) * uint32_t(e.param.empty() ? literal(e.factor) : scalars.at(e.param))); break;
        case EpilogueStep::Kind::add: v = int32_t(uint32_t(v) + uint32_t(mem[added].values[at(added)])), ++added; break;
      }
    }
    const size_t o = at(tensors.size() - 1);
    want[o] = v;
    written[o] = 1;
  });

  for (const Target& target : checkTargets(c)) {
    const ir::Plan plan = buildPlan(s, target);
    for (int vscale : target.scalable ? std::vector<int>{1, 2, 4, 16} : std::vector<int>{1}) {
      CAPTURE(target.spelling);
      CAPTURE(vscale);
      std::map<std::string, int64_t> params;
      for (const ir::Param& p : plan.params) {
        if (p.kind == ir::Param::Kind::extent) params[p.name] = runtime.at(p.publicName);
        if (p.kind == ir::Param::Kind::scalar) params[p.name] = scalars.at(p.publicName);  // the i32 value's bytes
      }
      std::vector<unsigned char> result = out.bytes;
      std::vector<sim::Buffer> buffers;
      for (size_t k = 0; k + 1 < tensors.size(); ++k) buffers.push_back({plan.tensors[k].name, mem[k].bytes.data(), nullptr, size_t(mem[k].span)});
      buffers.push_back({"out", result.data(), result.data(), size_t(out.span)});
      sim::runPlan(plan, params, buffers, vscale);
      for (size_t e = 0; e < size_t(out.span); ++e) {
        int32_t got;
        std::memcpy(&got, result.data() + 4 * e, 4);
        if (!written[e]) {
          REQUIRE_MESSAGE(std::memcmp(&got, out.bytes.data() + 4 * e, 4) == 0, "element " << e << " outside the output was written");
          continue;
        }
        REQUIRE_MESSAGE(got == want[e], "element " << e << ": got " << got << ", want " << want[e] << " (exact)");
      }
    }
  }
}

}  // namespace simdgen::testing
