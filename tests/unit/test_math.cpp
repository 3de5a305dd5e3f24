// SPDX-License-Identifier: Apache-2.0
// The math functions of map expressions (plan/math/, docs/math.md): spec errors, and the plans run
// by the interpreter at 128..2048 bits against the C library in a wider type, within the spec's
// tier (tests/math checks the generated code; this checks the one algorithm at any length).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../math/math_reference.h"
#include "../math/ulp_error.h"
#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"
#include "spec_errors.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

std::string mathSpec(const std::string& dtype, const std::string& expr, const std::string& extra = "") {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"m\",\n  \"kind\": \"map\",\n  \"shape\": [\"n\"],\n  \"inputs\": [{\"name\": \"x\", \"dtype\": \"" +
         dtype + "\"}],\n  \"outputs\": [{\"name\": \"y\", \"dtype\": \"" + dtype + "\", \"expr\": \"" + expr + "\"}]" + extra + "\n}\n";
}

void checkError(const std::string& text, const std::string& pointer, const std::string& part) {
  const SpecError e = simdgen::testing::errorOf(text);
  CHECK(e.pointer == pointer);
  CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, std::string(e.what()));
}

// Special values, the exp thresholds' neighbourhoods, then random bit patterns and moderate values.
template <class T>
std::vector<T> inputs(uint64_t seed, size_t random) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), L::max(), -L::max(), L::min(), L::denorm_min(),
                      -L::denorm_min(), T(1), T(-1), T(0.5), T(2)};
  for (double t : {std::log(double(L::max())), std::log(double(L::denorm_min()) / 2)}) {
    T a = T(t), b = T(t);
    for (int k = 0; k < 8; ++k) v.insert(v.end(), {a = std::nextafter(a, L::infinity()), b = std::nextafter(b, -L::infinity())});
  }
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < random; ++i) {
    const uint64_t r = rng();
    T x;
    if (i % 2) {
      if constexpr (sizeof(T) == 4) {
        const uint32_t u = uint32_t(r);
        std::memcpy(&x, &u, 4);
      } else {
        std::memcpy(&x, &r, 8);
      }
    } else {
      x = T(double(r >> 11) / double(uint64_t(1) << 53) * 200.0 - 100.0);
    }
    v.push_back(x);
  }
  return v;
}

// bits > 0: the generic target of that width; 0: the spec's first target (avx512: its plans scale
// by powers of two with ir::OpKind::ScaleB, which the interpreter runs too).
template <class T>
void checkPlan(const std::string& fn, int maxUlp, int bits, const std::string& tail) {
  const std::string dtype = sizeof(T) == 4 ? "f32" : "f64";
  const KernelSpec spec = parseSpecText(mathSpec(dtype, fn + "(x)", ",\n  \"max_ulp\": " + std::to_string(maxUlp) + tail), "t.json");
  const ir::Plan plan = buildPlan(spec, bits > 0 ? makeGenericTarget(bits) : makeTarget(spec.targets.at(0)));
  CAPTURE(fn);
  CAPTURE(dtype);
  CAPTURE(maxUlp);
  CAPTURE(bits);
  CAPTURE(tail);
  std::vector<T> x = inputs<T>(uint64_t(bits) * 31 + uint64_t(maxUlp), 997);  // an odd count: every run ends in a tail
  std::vector<T> y(x.size(), T(-7));
  std::vector<sim::Buffer> buffers{{plan.tensors[0].name, x.data(), nullptr, x.size()},
                                   {plan.tensors[1].name, nullptr, y.data(), y.size()}};
  sim::runPlan(plan, {{"n", int64_t(x.size())}}, buffers, 1);
  for (size_t i = 0; i < x.size(); ++i) {
    const long double ref = simdgen_math_test::math_reference<long double>(fn, (long double)x[i]);
    const double err = simdgen_math_test::ulp_error(y[i], ref);
    if (err > maxUlp) FAIL_CHECK(fn << "(" << double(x[i]) << ") = " << double(y[i]) << ", reference " << double(ref) << ": " << err << " ULP");
  }
}

}  // namespace

TEST_CASE("math spec: functions take floats, and max_ulp is a tier of the map family") {
  checkError(mathSpec("i32", "exp(x)"), "/outputs/0/expr", "exp() is defined on floats (f32, f64), but its operand is i32 (convert it first: exp(convert(x, f32)))");
  checkError(mathSpec("f32", "log(x, x)"), "/outputs/0/expr", "log() takes 1 argument, found 2");
  checkError(mathSpec("f32", "exp(x)", ",\n  \"max_ulp\": 2"), "/max_ulp", "expected the accuracy tier of the math functions (exp, log, tanh, ...): 1 (at most 1 ULP");
  checkError(mathSpec("f32", "exp(x)", ",\n  \"max_ulp\": \"1\""), "/max_ulp", "found string \"1\"");
  const std::string reduce = R"J({"simdgen": 1, "name": "r", "kind": "reduce", "op": "add", "input": {"dtype": "f32", "shape": [4, 4]},
                                  "output": {"dtype": "f32"}, "max_ulp": 1})J";
  checkError(reduce, "/max_ulp", "does not apply to kind \"reduce\"");
  CHECK(parseSpecText(mathSpec("f64", "exp(x) * log(x + 1)", ",\n  \"max_ulp\": 4"), "t.json").maxUlp == 4);
  CHECK(parseSpecText(mathSpec("f32", "exp(x)"), "t.json").maxUlp == 1);
  checkError(mathSpec("f64", "x * tanh(x)"), "/outputs/0/expr", "tanh() of f64 is offered within 4 ULP only (f32 within 1 or 4): set \"max_ulp\": 4");
  CHECK(parseSpecText(mathSpec("f64", "sigmoid(x)", ",\n  \"max_ulp\": 4"), "t.json").maxUlp == 4);
  checkError(mathSpec("f64", "gelu(x)", ",\n  \"max_ulp\": 4"), "/outputs/0/expr", "gelu() is offered for f32 only (within 1 ULP), not yet for f64");
  checkError(mathSpec("f64", "x * cos(x)", ",\n  \"max_ulp\": 4"), "/outputs/0/expr", "cos() is offered for f32 only (within 1 or 4 ULP)");
}

TEST_CASE("math plans: every function within its tier at 128..2048 bits, f32 and f64, both tails (interpreter)") {
  for (const std::string fn : {"exp", "exp2", "expm1", "log", "log2", "log1p", "recip", "rsqrt", "sin", "cos", "sigmoid", "tanh", "erf", "gelu", "gelu_tanh"})
    for (int maxUlp : {1, 4})
      for (int bits : {128, 512, 2048})
        for (const std::string tail : {"", ",\n  \"tail\": \"scalar\""}) {
          checkPlan<float>(fn, maxUlp, bits, tail);
          const bool f64 = fn.rfind("gelu", 0) != 0 && fn != "erf" && fn != "sin" && fn != "cos" &&
                           (maxUlp == 4 || (fn != "sigmoid" && fn != "tanh"));
          if (f64) checkPlan<double>(fn, maxUlp, bits, tail);
        }
}

TEST_CASE("math plans: AVX-512 plans use scale_b, get_exp and get_mant (vscalefps, vgetexpps, vgetmantps) and keep the bound (interpreter)") {
  const std::string avx512 = ",\n  \"targets\": [\"avx512\"]";
  const KernelSpec spec = parseSpecText(mathSpec("f32", "exp(x)", avx512), "t.json");
  CHECK(buildPlan(spec, makeTarget(spec.targets.at(0))).print().find("scale_b") != std::string::npos);
  CHECK(buildPlan(spec, makeGenericTarget(512)).print().find("scale_b") == std::string::npos);
  const KernelSpec logSpec = parseSpecText(mathSpec("f64", "log(x)", avx512), "t.json");
  const std::string logPlan = buildPlan(logSpec, makeTarget(logSpec.targets.at(0))).print();
  CHECK(logPlan.find("get_exp") != std::string::npos);
  CHECK(logPlan.find("get_mant") != std::string::npos);
  CHECK(buildPlan(logSpec, makeGenericTarget(512)).print().find("get_exp") == std::string::npos);
  for (const std::string fn : {"exp", "exp2", "expm1", "log", "log2", "log1p", "sigmoid", "tanh"})
    for (const std::string tail : {avx512, avx512 + ",\n  \"tail\": \"scalar\""}) {
      checkPlan<float>(fn, 4, 0, tail);
      checkPlan<double>(fn, 4, 0, tail);
    }
}
