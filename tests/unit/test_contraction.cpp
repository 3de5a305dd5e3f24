// SPDX-License-Identifier: Apache-2.0
// The contraction family: spec errors say where and why, and every plan (generic targets at
// 128..2048 bits, and each real target's plan) computes, in the interpreter, what a double
// precision loop over the spec's definition computes, within a rounding bound.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"
#include "spec_errors.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

std::string spec(const std::string& body, const std::string& name = "k") {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"" + name + "\",\n  \"kind\": \"contraction\",\n  \"dtype\": \"f32\",\n" + body + "\n}\n";
}

const std::string kMatmul = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "strides": ["lda", 1]}, {"name": "b", "index": ["k", "j"], "strides": ["ldb", 1]}],
  "output": {"name": "c", "index": ["i", "j"], "strides": ["ldc", 1]})J";

using simdgen::testing::errorOf;

void checkError(const std::string& body, const std::string& pointer, const std::string& part) {
  const SpecError e = errorOf(spec(body));
  CHECK_MESSAGE(e.pointer == pointer, e.what());
  CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
  CHECK(e.line > 0);
}

// One tensor's memory in the test: dense unless the spec gives strides; padding elements keep a
// sentinel so writes outside the elements are caught.
struct Mem {
  std::vector<int64_t> extents, strides;
  std::vector<float> data;
  int64_t offset(const std::vector<int64_t>& at) const {
    int64_t o = 0;
    for (size_t q = 0; q < at.size(); ++q) o += at[q] * strides[q];
    return o;
  }
};

int64_t valueOf(const AffineIndex& ix, const std::vector<int64_t>& point) {
  int64_t v = ix.constant;
  for (const auto& t : ix.terms) v += t.coef * point[size_t(t.dim)];
  return v;
}

// Runs every plan of `text` (generic targets at every vector length, and the real targets) for
// the given dim extents and checks each output element against the definition.
void checkPlans(const std::string& text, const std::map<std::string, int64_t>& sizes, uint64_t seed) {
  const KernelSpec s = parseSpecText(text, "t.json");
  const ContractionSpec& c = s.contraction;
  std::mt19937_64 rng(seed);
  std::vector<int64_t> ext;
  for (const ContractionDim& d : c.dims) ext.push_back(d.extent.isStatic() ? *d.extent.value : sizes.at(d.extent.name));
  std::map<std::string, int64_t> runtime;  // public name -> value
  for (const auto& [k, v] : sizes) runtime[k] = v;
  // Tensors in the plan's order: operands, init operand, added tensors, output.
  std::vector<const ContractionTensor*> tensors{&c.operands[0], &c.operands[1]};
  if (c.init == ContractionInit::operand) tensors.push_back(&c.initOperand);
  for (const EpilogueStep& e : c.epilogue)
    if (e.kind == EpilogueStep::Kind::add) tensors.push_back(&e.operand);
  tensors.push_back(&c.output);
  std::vector<Mem> mem(tensors.size());
  for (size_t k = 0; k < tensors.size(); ++k) {
    const ContractionTensor& t = *tensors[k];
    Mem& m = mem[k];
    for (const AffineIndex& ix : t.index) {
      int64_t e = ix.constant + 1;
      for (const auto& term : ix.terms) e += term.coef * (ext[size_t(term.dim)] - 1);
      m.extents.push_back(std::max<int64_t>(e, 0));
    }
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
      dense = m.strides[q] * std::max<int64_t>(m.extents[q], 1);
    }
    int64_t span = 1;
    for (size_t q = 0; q < m.extents.size(); ++q) span += (m.extents[q] - 1) * m.strides[q];
    m.data.assign(size_t(std::max<int64_t>(span, 1)), 0.0f);
    const bool out = k + 1 == tensors.size();
    for (float& x : m.data) x = out && c.init != ContractionInit::output ? -777.0f : float(int64_t(rng() % 2001) - 1000) / 256.0f;
  }
  const std::vector<float> before = mem.back().data;
  float scale = 1.0f;
  std::map<std::string, float> scalars;
  for (const EpilogueStep& e : c.epilogue)
    if (e.kind == EpilogueStep::Kind::scale && !e.param.empty()) scalars[e.param] = float(int64_t(rng() % 9) - 4) / 4.0f + 0.125f;

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
    auto at = [&](size_t k) {
      std::vector<int64_t> v;
      for (const AffineIndex& ix : tensors[k]->index) v.push_back(valueOf(ix, point));
      return mem[k].offset(v);
    };
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
      const double p = double(mem[0].data[size_t(at(0))]) * mem[1].data[size_t(at(1))];
      sum += p, abs += std::fabs(p), ++terms;
    };
    reduce(0);
    // Any order of binary32 sums and FMAs: |error| <= gamma_n * sum |terms| (n = terms), and
    // each epilogue step is 1-Lipschitz (relu, clamp), scales the error (scale) or adds one
    // rounding (scale, add).
    const double u = std::ldexp(1.0, -24);
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
        case EpilogueStep::Kind::add: sum += mem[added++].data[size_t(at(added - 1))], err += u * std::fabs(sum); break;
      }
    }
    want[size_t(o)] = sum;
    bound[size_t(o)] = err + u * std::fabs(sum) + 1e-30;
    written[size_t(o)] = 1;
  };
  parallel(0);

  std::vector<Target> targets;
  for (int bits : {128, 256, 512, 1024, 2048}) targets.push_back(makeGenericTarget(bits));
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) {
    TargetRequest r{isa, {}};
    if (std::string(isa) == "avx2") r.features = {"fma"};
    targets.push_back(makeTarget(r));
  }
  targets.push_back(makeTarget(TargetRequest{"avx2", {}}));  // no FMA: multiplies and adds
  for (const Target& target : targets) {
    const ir::Plan plan = buildPlan(s, target);
    for (int vscale : target.scalable ? std::vector<int>{1, 2, 4, 16} : std::vector<int>{1}) {
      CAPTURE(target.spelling);
      CAPTURE(vscale);
      std::map<std::string, int64_t> params;
      for (const ir::Param& p : plan.params) {
        if (p.kind == ir::Param::Kind::extent) params[p.name] = runtime.at(p.publicName);
        if (p.kind == ir::Param::Kind::scalar) {
          int64_t bits = 0;
          std::memcpy(&bits, &scalars.at(p.publicName), sizeof(float));
          params[p.name] = bits;
        }
      }
      std::vector<float> out = before;
      std::vector<sim::Buffer> buffers;
      for (size_t k = 0; k + 1 < tensors.size(); ++k) buffers.push_back({plan.tensors[k].name, mem[k].data.data(), nullptr, mem[k].data.size()});
      buffers.push_back({"out", out.data(), out.data(), out.size()});  // init "output" reads it
      sim::runPlan(plan, params, buffers, vscale);
      for (size_t e = 0; e < out.size(); ++e) {
        if (!written[e]) {
          REQUIRE_MESSAGE(std::memcmp(&out[e], &before[e], sizeof(float)) == 0, "element " << e << " outside the output was written");
          continue;
        }
        REQUIRE_MESSAGE(std::fabs(out[e] - want[e]) <= bound[e], "element " << e << ": got " << out[e] << ", want " << want[e] << " +- " << bound[e]);
      }
    }
  }
}

}  // namespace

TEST_CASE("contraction spec: errors say where and what is allowed") {
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}],
  "operands": [{"name": "a", "index": ["i"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/operands", "the two multiplied tensors");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/dims/1", "add \"kind\": \"reduction\"");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "q"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/operands/0/index/1", "unknown dim \"q\"; the dims are: i, k");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k - 1"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/operands/0/index/1", "unexpected '-'");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k*i"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/operands/0/index/1", "not affine");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["k"]})J",
             "/output/index/0", "is a reduction dim");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}, {"name": "z", "extent": 2, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/dims/2", "indexes neither operand");
  checkError(kMatmul + R"J(,
  "init": {"name": "bias", "index": ["k"]})J",
             "/init/index/0", "parallel dims");
  checkError(kMatmul + R"J(,
  "epilogue": [{"op": "clamp", "min": 2, "max": 1}])J",
             "/epilogue/0/max", "below min");
  checkError(kMatmul + R"J(,
  "epilogue": [{"op": "gelu"}])J",
             "/epilogue/0/op", "allowed: relu, clamp, scale, add");
  checkError(kMatmul + R"J(,
  "epilogue": [{"op": "scale", "by": "lda"}])J",
             "/epilogue/0/by", "already used");
  checkError(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "strides": ["m"]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J",
             "/operands/0/strides", "one stride per index entry (2)");
  checkError(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "m", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J",
             "/operands/1/name", "already used");
  const SpecError wrongKind = errorOf("{\"simdgen\": 1, \"name\": \"r\", \"kind\": \"reduce\", \"op\": \"add\", \"dims\": [],"
                                      " \"input\": {\"dtype\": \"f32\", \"shape\": [4]}}");
  CHECK(wrongKind.pointer == "/dims");
  CHECK(std::string(wrongKind.what()).find("belongs to kind \"contraction\"") != std::string::npos);
}

TEST_CASE("contraction plans: matmul, transposed and accumulated forms agree with the definition") {
  for (int64_t m : {0, 1, 5, 7, 13})
    for (int64_t n : {1, 16, 17, 65})
      for (int64_t k : {0, 1, 9}) {
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(k);
        checkPlans(spec(kMatmul), {{"m", m}, {"n", n}, {"k", k}}, uint64_t(m * 10000 + n * 100 + k));
      }
  const std::string acc = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "at", "index": ["k", "i"], "strides": ["lda", 1]}, {"name": "b", "index": ["k", "j"]}],
  "init": "output",
  "output": {"name": "c", "index": ["i", "j"], "strides": ["ldc", 1]},
  "epilogue": [{"op": "scale", "by": "alpha"}, {"op": "clamp", "min": -1, "max": 1.5}, {"op": "add", "name": "res"}])J";
  // B stored transposed: not contiguous along j, planned one lane wide.
  const std::string bt = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "bt", "index": ["j", "k"]}],
  "output": {"name": "c", "index": ["i", "j"]},
  "epilogue": [{"op": "relu"}])J";
  for (int64_t m : {1, 6, 11})
    for (int64_t n : {3, 33}) {
      checkPlans(spec(acc), {{"m", m}, {"n", n}, {"k", 5}}, uint64_t(m * 100 + n));
      checkPlans(spec(bt), {{"m", m}, {"n", n}, {"k", 4}}, uint64_t(m * 100 + n + 1));
    }
  // Long reductions: several blocks of the packed panel (128 steps on AVX-512, 512 on AVX2 and
  // NEON), init and epilogue around them.
  checkPlans(spec(kMatmul), {{"m", 7}, {"n", 70}, {"k", 600}}, 21);
  checkPlans(spec(acc), {{"m", 9}, {"n", 66}, {"k", 530}}, 22);
  // Static extents: the tile fits the shape (37 rows: MR from 6, 5, 4; 40 columns).
  const std::string fixed = R"J(  "dims": [{"name": "i", "extent": 37}, {"name": "j", "extent": 40}, {"name": "k", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  checkPlans(spec(fixed), {}, 7);
  // A 1-D output (a vector-matrix product: no tile dim).
  const std::string vecmat = R"J(  "dims": [{"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "x", "index": ["k"]}, {"name": "a", "index": ["k", "j"]}],
  "output": {"name": "y", "index": ["j"]})J";
  checkPlans(spec(vecmat), {{"n", 37}, {"k", 6}}, 8);
}

TEST_CASE("contraction plans: the seed convolution, a depthwise convolution and a batched matmul") {
  const std::string conv = R"J(  "dims": [{"name": "n", "extent": "batch"}, {"name": "y", "extent": "h"}, {"name": "x", "extent": "w"},
           {"name": "co", "extent": "cout"}, {"name": "rz", "extent": 3, "kind": "reduction"},
           {"name": "ry", "extent": 3, "kind": "reduction"}, {"name": "rx", "extent": "cin", "kind": "reduction"}],
  "operands": [{"name": "filter", "index": ["rx", "rz", "ry", "co"]}, {"name": "input", "index": ["n", "y + rz", "x + ry", "rx"]}],
  "init": {"name": "bias", "index": ["co"]},
  "output": {"name": "output", "index": ["n", "y", "x", "co"]},
  "epilogue": [{"op": "relu"}])J";
  for (int64_t w : {1, 7, 12})
    for (int64_t cout : {3, 40}) checkPlans(spec(conv), {{"batch", 2}, {"h", 2}, {"w", w}, {"cout", cout}, {"cin", 3}}, uint64_t(w * 100 + cout));
  // Depthwise, stride 2: both operands run along the channels.
  const std::string depthwise = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "width"}, {"name": "c", "extent": "ch"},
           {"name": "ry", "extent": 3, "kind": "reduction"}, {"name": "rx", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["2*y + ry", "2*x + rx", "c"]}, {"name": "w", "index": ["ry", "rx", "c"]}],
  "output": {"name": "output", "index": ["y", "x", "c"]})J";
  checkPlans(spec(depthwise), {{"h", 3}, {"width", 9}, {"ch", 21}}, 11);
  const std::string batched = R"J(  "dims": [{"name": "b", "extent": "batch"}, {"name": "i", "extent": "m"}, {"name": "j", "extent": "n"},
           {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["b", "i", "k"]}, {"name": "bm", "index": ["b", "k", "j"]}],
  "output": {"name": "c", "index": ["b", "i", "j"]})J";
  checkPlans(spec(batched), {{"batch", 3}, {"m", 7}, {"n", 18}, {"k", 5}}, 12);
}
