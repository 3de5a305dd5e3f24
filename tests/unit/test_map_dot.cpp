// SPDX-License-Identifier: Apache-2.0
// Integer sums of widened products in a map pass go through dot-product instructions (vpdpbusd
// with an offset, vpmaddwd, sdot/udot/usdot): every target's plan, run by the interpreter, gives
// the exact sums (wrapped to i32) that a plain loop gives, including the targets this machine
// cannot run (avx2+avx_vnni) and every pair of signednesses.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

// Inputs a (i8), b (i8), u (u8), v (u8), w (i16); outputs as `outputs`, each an i32 sum.
std::string dotSpec(const std::string& outputs) {
  return R"J({"simdgen": 1, "name": "d", "kind": "map", "shape": ["n"],
  "inputs": [{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "i8"}, {"name": "u", "dtype": "u8"},
             {"name": "v", "dtype": "u8"}, {"name": "w", "dtype": "i16"}],
  "outputs": )J" + outputs + "}";
}

struct Data {
  std::vector<int8_t> a, b;
  std::vector<uint8_t> u, v;
  std::vector<int16_t> w;
};

// Random bytes, or every element at its type's extreme (the products' largest magnitudes).
Data draw(int64_t n, std::mt19937_64& rng, bool extremes) {
  Data d{std::vector<int8_t>(size_t(n)), std::vector<int8_t>(size_t(n)), std::vector<uint8_t>(size_t(n)),
         std::vector<uint8_t>(size_t(n)), std::vector<int16_t>(size_t(n))};
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    d.a[size_t(i)] = extremes ? int8_t(-128) : int8_t(r);
    d.b[size_t(i)] = extremes ? int8_t(i % 2 ? 127 : -128) : int8_t(r >> 8);
    d.u[size_t(i)] = extremes ? uint8_t(255) : uint8_t(r >> 16);
    d.v[size_t(i)] = extremes ? uint8_t(255) : uint8_t(r >> 24);
    d.w[size_t(i)] = extremes ? int16_t(-32768) : int16_t(r >> 32);
  }
  return d;
}

// The plain loop's value: exact in i64, wrapped to i32 as the spec's i32 additions wrap.
int32_t wrapped(int64_t s) { return int32_t(uint32_t(uint64_t(s))); }

void check(const std::string& text, const TargetRequest& request, int vscale, const std::vector<int32_t (*)(const Data&, int64_t)>& want) {
  const KernelSpec spec = parseSpecText(text, "t.json");
  const Target target = makeTarget(request);
  const ir::Plan plan = buildPlan(spec, target);
  INFO(request.spelling() << " vscale " << vscale);
  std::mt19937_64 rng(uint64_t(vscale) * 7919 + request.spelling().size());
  for (int64_t n : {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1021, 4099})
    for (bool extremes : {false, true}) {
      const Data d = draw(n, rng, extremes);
      std::vector<int32_t> out(want.size(), 0x5a5a5a5a);
      std::vector<sim::Buffer> buffers{{"in0", d.a.data(), nullptr, size_t(n)}, {"in1", d.b.data(), nullptr, size_t(n)},
                                       {"in2", d.u.data(), nullptr, size_t(n)}, {"in3", d.v.data(), nullptr, size_t(n)},
                                       {"in4", d.w.data(), nullptr, size_t(n)}};
      for (size_t k = 0; k < want.size(); ++k) buffers.push_back({"out" + std::to_string(k), nullptr, &out[k], 1});
      sim::runPlan(plan, {{"n", n}}, buffers, vscale);
      CAPTURE(n);
      CAPTURE(extremes);
      for (size_t k = 0; k < want.size(); ++k) {
        CAPTURE(k);
        CHECK(out[k] == want[k](d, n));
      }
    }
}

template <typename F>
int32_t sum(int64_t n, F term) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += term(size_t(i));
  return wrapped(s);
}

}  // namespace

TEST_CASE("map dot products: every pair of byte signednesses, squares and sums agree with the plain loop on every target") {
  const std::string text = dotSpec(R"J([
    {"name": "ab", "dtype": "i32", "reduce": "add", "expr": "convert(a, i32) * convert(b, i32)"},
    {"name": "ua", "dtype": "i32", "reduce": "add", "expr": "convert(u, i32) * convert(a, i32)"},
    {"name": "bu", "dtype": "i32", "reduce": "add", "expr": "convert(b, i32) * convert(u, i32)"},
    {"name": "uv", "dtype": "i32", "reduce": "add", "expr": "convert(u, i32) * convert(v, i32)"},
    {"name": "aa", "dtype": "i32", "reduce": "add", "expr": "convert(a, i32) * convert(a, i32)"},
    {"name": "sa", "dtype": "i32", "reduce": "add", "expr": "convert(a, i32)"},
    {"name": "sv", "dtype": "i32", "reduce": "add", "expr": "convert(v, i32)"}])J");
  const std::vector<int32_t (*)(const Data&, int64_t)> want{
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.a[i]) * d.b[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.u[i]) * d.a[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.b[i]) * d.u[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.u[i]) * d.v[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.a[i]) * d.a[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.a[i]); }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.v[i]); }); }};
  for (const TargetRequest& t : {TargetRequest{"avx512", {"vnni"}}, TargetRequest{"avx512", {}}, TargetRequest{"avx2", {"avx_vnni"}},
                                 TargetRequest{"avx2", {}}, TargetRequest{"neon", {"dotprod"}}, TargetRequest{"neon", {"dotprod", "i8mm"}}})
    check(text, t, 1, want);
  for (int vscale : {1, 2, 16}) {
    check(text, TargetRequest{"sve", {}}, vscale, want);
    check(text, TargetRequest{"sve", {"i8mm"}}, vscale, want);
  }
}

TEST_CASE("map dot products: i16 operands take vpmaddwd pairs on x86, and i16 extremes wrap as the i32 sum does") {
  const std::string text = dotSpec(R"J([
    {"name": "ww", "dtype": "i32", "reduce": "add", "expr": "convert(w, i32) * convert(w, i32)"},
    {"name": "wa", "dtype": "i32", "reduce": "add", "expr": "convert(w, i32) * convert(a, i32)"},
    {"name": "uw", "dtype": "i32", "reduce": "add", "expr": "convert(u, i32) * convert(w, i32)"},
    {"name": "sw", "dtype": "i32", "reduce": "add", "expr": "convert(w, i32)"}])J");
  const std::vector<int32_t (*)(const Data&, int64_t)> want{
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.w[i]) * d.w[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.w[i]) * d.a[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.u[i]) * d.w[i]; }); },
      [](const Data& d, int64_t n) { return sum(n, [&](size_t i) { return int64_t(d.w[i]); }); }};
  for (const TargetRequest& t : {TargetRequest{"avx512", {"vnni"}}, TargetRequest{"avx512", {}}, TargetRequest{"avx2", {"avx_vnni"}},
                                 TargetRequest{"avx2", {}}, TargetRequest{"neon", {}}})
    check(text, t, 1, want);
  check(text, TargetRequest{"sve", {}}, 4, want);
}

TEST_CASE("map dot products: the plan uses the instructions where the target has them, and not elsewhere") {
  const std::string text = dotSpec(R"J([{"name": "ab", "dtype": "i32", "reduce": "add", "expr": "convert(a, i32) * convert(b, i32)"}])J");
  const KernelSpec spec = parseSpecText(text, "t.json");
  auto plan = [&](const TargetRequest& t) { return buildPlan(spec, makeTarget(t)).print(); };
  CHECK(plan({"avx512", {"vnni"}}).find("dot_u8i8") != std::string::npos);
  CHECK(plan({"avx512", {}}).find("dot_i16i16") != std::string::npos);
  CHECK(plan({"avx2", {}}).find("dot_i16i16") != std::string::npos);
  CHECK(plan({"neon", {"dotprod"}}).find("dot_i8i8") != std::string::npos);
  CHECK(plan({"sve", {}}).find("dot_i8i8") != std::string::npos);
  CHECK(plan({"neon", {}}).find("dot_") == std::string::npos);
  CHECK(plan({"scalar", {}}).find("dot_") == std::string::npos);
  // One output that is not such a sum keeps the whole pass on the ordinary loop.
  const KernelSpec mixed = parseSpecText(dotSpec(R"J([
    {"name": "ab", "dtype": "i32", "reduce": "add", "expr": "convert(a, i32) * convert(b, i32)"},
    {"name": "mx", "dtype": "i32", "reduce": "max", "expr": "convert(a, i32)"}])J"), "t.json");
  CHECK(buildPlan(mixed, makeTarget({"avx512", {"vnni"}})).print().find("dot_") == std::string::npos);
}
