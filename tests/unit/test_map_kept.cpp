// SPDX-License-Identifier: Apache-2.0
// Reduction terms kept for a later pass (plan/map_kept.h): softmax's exp(x - max) is stored by the
// pass that sums it and read back by the pass that divides it, unless that would read an input
// already overwritten, change a type, or save nothing.
#include <doctest/doctest.h>

#include <string>

#include "plan/family.h"
#include "plan/map_kept.h"
#include "spec/spec.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

std::string softmaxSpec(const std::string& last, const std::string& extra = "") {
  return R"J({"simdgen": 1, "name": "softmax_k", "kind": "map", "shape": ["rows", "cols"],
  "inputs": [{"name": "x", "dtype": "f32"}],
  "outputs": [{"name": "m", "dtype": "f32", "reduce": "max", "expr": "x", "internal": true},
              {"name": "s", "dtype": "f32", "reduce": "add", "expr": "exp(x - m)"}, )J" +
         last + "]" + extra + "}";
}

}  // namespace

TEST_CASE("map kept terms: softmax keeps exp(x - max) in y, in place or not, and the last pass computes no exp") {
  for (const std::string inPlace : {std::string(""), std::string(R"J(, "in_place": "x")J")}) {
    const KernelSpec spec = parseSpecText(softmaxSpec(R"J({"name": "y", "dtype": "f32", "expr": "exp(x - m) / s")J" + inPlace + "}"), "t.json");
    const auto kept = keptTerms(spec);
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].reduction == 1);
    CHECK(kept[0].output == 2);
    CHECK(kept[0].from == 1);
    CHECK(kept[0].to == 2);
    CHECK(kept[0].uses.size() == 1);
    for (const TargetRequest& t : {TargetRequest{"avx512", {}}, TargetRequest{"avx2", {}}, TargetRequest{"neon", {}}, TargetRequest{"sve", {}},
                                   TargetRequest{"scalar", {}}}) {
      const std::string plan = buildPlan(spec, makeTarget(t)).print();
      INFO(t.spelling() << inPlace << "\n" << plan);
      const size_t pass3 = plan.find("pass 3 over the");
      REQUIRE(pass3 != std::string::npos);
      // exp's polynomial multiplies by log2(e) (1.442695): in pass 2, never in pass 3.
      CHECK(plan.find("1.442695") < pass3);
      CHECK(plan.find("1.442695", pass3) == std::string::npos);
      CHECK(plan.find("y_kept", pass3) != std::string::npos);
    }
  }
}

TEST_CASE("map kept terms: not kept where the array would be read after it was overwritten, or the type differs, or there is no math") {
  // In place over x, and pass 3 still reads x itself: storing exp(x - m) over x in pass 2 would lose it.
  CHECK(keptTerms(parseSpecText(softmaxSpec(R"J({"name": "y", "dtype": "f32", "expr": "exp(x - m) / s + x", "in_place": "x"})J"), "t.json")).empty());
  // Not in place: the same output keeps the term (pass 3 reads x from its own array).
  CHECK(keptTerms(parseSpecText(softmaxSpec(R"J({"name": "y", "dtype": "f32", "expr": "exp(x - m) / s + x"})J"), "t.json")).size() == 1);
  // An f64 output would hold the f32 term in another type.
  CHECK(keptTerms(parseSpecText(softmaxSpec(R"J({"name": "y", "dtype": "f64", "expr": "convert(exp(x - m), f64) / convert(s, f64)"})J"), "t.json")).empty());
  // The term as part of a larger expression is kept; a later output without it keeps nothing.
  CHECK(keptTerms(parseSpecText(softmaxSpec(R"J({"name": "y", "dtype": "f32", "expr": "exp(x - m) * 2 / s"})J"), "t.json")).size() == 1);
  CHECK(keptTerms(parseSpecText(softmaxSpec(R"J({"name": "y", "dtype": "f32", "expr": "x - m - log(s)"})J"), "t.json")).empty());
  // No math function: (x - mean)^2 is cheaper to compute again than to store and load.
  const std::string layerNorm = R"J({"simdgen": 1, "name": "l", "kind": "map", "shape": ["rows", "cols"],
  "inputs": [{"name": "x", "dtype": "f32"}],
  "outputs": [{"name": "mu", "dtype": "f32", "reduce": "mean", "expr": "x", "internal": true},
              {"name": "var", "dtype": "f32", "reduce": "mean", "expr": "(x - mu) * (x - mu)", "internal": true},
              {"name": "y", "dtype": "f32", "expr": "(x - mu) * (x - mu) / var"}]})J";
  CHECK(keptTerms(parseSpecText(layerNorm, "t.json")).empty());
}
