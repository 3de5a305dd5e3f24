// SPDX-License-Identifier: Apache-2.0
// Random contractions: specs drawn from a fixed seed (dims of both kinds, static and runtime
// extents, windows and strided indices, zero-padded windows, runtime strides, every init and
// epilogue, operands packed ahead, schedules that split and unroll) run through checkPlans, which compares every plan
// (generic targets at 128..2048 bits and each real target) in the interpreter with the
// definition computed in double. A spec the parser or the scheduler refuses must be refused with
// a SpecError or a PlanError (a message that says where); anything else is a bug.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "contraction_check.h"
#include "random_draw.h"
#include "plan/reduce_builder.h"  // PlanError
#include "spec/spec.h"

using namespace simdgen;
using simdgen::testing::Draw;

namespace {

struct RandomContraction {
  std::string text;
  std::map<std::string, int64_t> sizes;
  bool exact = false;  // i32: checkIntPlans (exact, wrapping sums of narrow or i32 operands)
};

std::string jsonString(const std::string& s) { return "\"" + s + "\""; }

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + items[k];
  return out + "]";
}

RandomContraction randomContraction(uint64_t seed) {
  Draw d(seed);
  RandomContraction out;
  // f32 mostly; i32 sums of operands of their own integer dtypes (dot-product groups where the
  // target has them); f64; f32 sums of bf16 operands.
  const int64_t kind = d.below(20);
  const std::string dtype = kind < 9 ? "f32" : kind < 16 ? "i32" : kind < 18 ? "f64" : "f32";
  const bool bf16 = kind >= 18;
  out.exact = dtype == "i32";
  const int parallel = int(1 + d.below(3)), reductions = int(1 + d.below(3));
  std::vector<std::string> par, red, dims;
  std::map<std::string, std::string> extentJson;  // dim -> its extent as JSON (a number or a runtime name)
  for (int k = 0; k < parallel; ++k) par.push_back("p" + std::to_string(k));
  for (int k = 0; k < reductions; ++k) red.push_back("r" + std::to_string(k));
  // Extents: static 1..9, or runtime (0..13; the vector dim up to 40 to cross several vectors).
  for (const std::string& name : par) {
    const bool runtime = d.chance(50);
    const int64_t value = d.chance(10) ? 0 : 1 + d.below(name == "p0" ? 40 : 9);
    if (runtime) out.sizes["n_" + name] = value;
    extentJson[name] = runtime ? jsonString("n_" + name) : std::to_string(std::max<int64_t>(value, 1));
    dims.push_back(R"({"name": ")" + name + R"(", "extent": )" + extentJson[name] + "}");
  }
  for (const std::string& name : red) {
    const bool runtime = d.chance(40);
    const int64_t value = d.chance(5) ? 0 : 1 + d.below(7);
    if (runtime) out.sizes["n_" + name] = value;
    extentJson[name] = runtime ? jsonString("n_" + name) : std::to_string(std::max<int64_t>(value, 1));
    dims.push_back(R"({"name": ")" + name + R"(", "extent": )" + extentJson[name] + R"(, "kind": "reduction"})");
  }
  // The output: every parallel dim once, p0 innermost (the vector dim) most of the time.
  std::vector<std::string> outIndex = par;
  d.shuffle(outIndex);
  if (d.chance(70))
    for (size_t k = 0; k < outIndex.size(); ++k)
      if (outIndex[k] == "p0") std::swap(outIndex[k], outIndex.back());
  // Operands: each reduction dim indexes one or both; parallel dims at random; some entries are
  // windows ("p + r", "2*p + r") or carry a constant.
  std::vector<std::vector<std::string>> index(2);
  std::vector<bool> plain(2, true);
  for (const std::string& r : red) {
    const int where = int(d.below(3));  // 0: a, 1: b, 2: both
    for (int k = 0; k < 2; ++k)
      if (where == k || where == 2) index[size_t(k)].push_back(r);
  }
  for (const std::string& p : par) {
    const int where = int(d.below(4));  // 0: a, 1: b, 2: both, 3: neither
    for (int k = 0; k < 2; ++k)
      if (where == k || where == 2) index[size_t(k)].push_back(p);
  }
  for (int k = 0; k < 2; ++k) {
    std::vector<std::string>& ix = index[size_t(k)];
    if (ix.empty()) ix.push_back(par[size_t(d.below(parallel))]);
    d.shuffle(ix);
    // Fold a parallel dim and a reduction dim into one entry now and then (a window).
    for (size_t q = 0; q + 1 < ix.size(); ++q) {
      const bool pr = ix[q][0] == 'p' && ix[q + 1][0] == 'r', rp = ix[q][0] == 'r' && ix[q + 1][0] == 'p';
      if ((pr || rp) && d.chance(30)) {
        const std::string& p = pr ? ix[q] : ix[q + 1];
        const std::string& r = pr ? ix[q + 1] : ix[q];
        ix[q] = (d.chance(30) ? "2*" : "") + p + " + " + r + (d.chance(20) ? " + 1" : "");
        ix.erase(ix.begin() + long(q + 1));
        plain[size_t(k)] = false;
      }
    }
  }
  // Padding now and then (its own draws, so that the specs above stay those of earlier runs): a
  // window off the vector dim starts 1 or 2 before the tensor, whose extent along it is its
  // parallel dim's; the operand's other entries span their dims' extents.
  Draw padDraw(seed * 0x9e3779b97f4a7c15u + 7);
  std::vector<std::string> paddedExtents[2];
  for (int k = 0; k < 2; ++k)
    for (std::string& e : index[size_t(k)]) {
      const size_t plus = e.find(" + ");
      if (plus == std::string::npos) continue;
      std::string p = e.substr(0, plus);
      if (p.rfind("2*", 0) == 0) p = p.substr(2);
      if (p == outIndex.back() || !padDraw.chance(40)) continue;
      e += " - " + std::to_string(1 + padDraw.below(2));
      paddedExtents[k].assign(index[size_t(k)].size(), "");
    }
  for (int k = 0; k < 2; ++k)
    for (size_t q = 0; q < paddedExtents[k].size(); ++q) {
      const std::string& e = index[size_t(k)][q];
      const std::string first = e.substr(0, e.find(' '));
      paddedExtents[k][q] = extentJson.at(first.rfind("2*", 0) == 0 ? first.substr(2) : first);
    }
  std::vector<std::string> operands;
  for (int k = 0; k < 2; ++k) {
    const std::string name = k ? "b" : "a";
    std::vector<std::string> entries;
    for (const std::string& e : index[size_t(k)]) entries.push_back(jsonString(e));
    std::string o = R"({"name": ")" + name + R"(", "index": )" + list(entries);
    if (!paddedExtents[k].empty()) o += R"(, "padding": "zero", "extents": )" + list(paddedExtents[k]);
    if (out.exact) o += R"(, "dtype": ")" + d.pick(std::vector<std::string>{"i32", "i8", "u8", "i16", "u16", "i8", "u8"}) + "\"";
    if (d.chance(30)) {  // runtime strides: the checker pads them; the innermost stays 1 or not
      std::vector<std::string> strides;
      for (size_t q = 0; q < entries.size(); ++q)
        strides.push_back(q + 1 == entries.size() && d.chance(70) ? "1" : jsonString("s_" + name + std::to_string(q)));
      o += R"(, "strides": )" + list(strides);
    } else if (plain[size_t(k)] && std::find(index[size_t(k)].begin(), index[size_t(k)].end(), outIndex.back()) != index[size_t(k)].end() && d.chance(30)) {
      o += R"(, "pack": "ahead")";
    }
    operands.push_back(o + "}");
  }
  std::vector<std::string> outEntries;
  for (const std::string& e : outIndex) outEntries.push_back(jsonString(e));
  std::string text = R"(  "dims": )" + list(dims) + ",\n  \"operands\": " + list(operands) + ",\n";
  const int64_t init = d.below(10);
  if (init < 3) {
    std::vector<std::string> bias;  // in the output's order (the vector dim innermost where it is one)
    for (const std::string& p : outIndex)
      if (d.chance(60)) bias.push_back(jsonString(p));
    if (bias.empty()) bias.push_back(jsonString(outIndex.back()));
    text += R"(  "init": {"name": "bias", "index": )" + list(bias) + "},\n";
  } else if (init < 5) {
    text += R"(  "init": "output",)" "\n";
  }
  std::string output = R"({"name": "c", "index": )" + list(outEntries);
  if (d.chance(30)) {
    std::vector<std::string> strides;
    for (size_t q = 0; q < outEntries.size(); ++q) strides.push_back(q + 1 == outEntries.size() ? "1" : jsonString("s_c" + std::to_string(q)));
    output += R"(, "strides": )" + list(strides);
  }
  text += R"(  "output": )" + output + "}";
  std::vector<std::string> epilogue;
  if (d.chance(30)) epilogue.push_back(R"({"op": "relu"})");
  if (d.chance(20)) epilogue.push_back(out.exact ? R"({"op": "clamp", "min": -100000, "max": 2000000})" : R"({"op": "clamp", "min": -3.5, "max": 2.25})");
  if (d.chance(20)) epilogue.push_back(out.exact ? R"({"op": "scale", "by": -3})" : R"({"op": "scale", "by": 0.75})");
  if (d.chance(15)) {  // a residual, dense or at a runtime stride of its own
    std::vector<std::string> strides(outEntries.size() - 1, jsonString("s_res"));
    strides.push_back("1");
    epilogue.push_back(R"({"op": "add", "name": "residual")" + (d.chance(50) ? R"(, "strides": )" + list(strides) : std::string()) + "}");
  }
  if (d.chance(10)) epilogue.push_back(R"({"op": "scale", "by": "alpha"})");
  d.shuffle(epilogue);
  if (!epilogue.empty()) text += ",\n  \"epilogue\": " + list(epilogue);
  // A schedule now and then: the vector dim in tiles of 1 or 2 vectors, its tail by any policy,
  // and a reduction dim unrolled.
  const std::string& vdim = outIndex.back();
  if (d.chance(25)) {
    const std::string tail = d.pick(std::vector<std::string>{"predicate", "guard", "shift_inwards"});
    std::string schedule = R"({"output": [{"split": ")" + vdim + R"(", "into": ["vo", "vi"], "vectors": )" + std::to_string(1 + d.below(2)) +
                           R"(, "tail": ")" + tail + R"("}, {"vectorize": "vi"}, {"unroll": "vi"}])";
    if (d.chance(50)) schedule += R"(, "update": [{"unroll": ")" + d.pick(red) + R"(", "factor": 2}])";
    text += ",\n  \"schedule\": " + schedule + "}";
  }
  out.text = simdgen::testing::contractionSpec(text, "rand" + std::to_string(seed), dtype);
  if (bf16) out.text = simdgen::testing::withBf16Operands(out.text, {"a", "b"});
  return out;
}

}  // namespace

TEST_CASE("contraction plans: random specs agree with the definition on every target, or are refused with a message") {
  int accepted = 0, refused = 0;
  constexpr int kSpecs = 400;
  for (uint64_t seed = 1; seed <= kSpecs; ++seed) {
    const RandomContraction r = randomContraction(seed);
    CAPTURE(r.text);
    try {
      if (r.exact) simdgen::testing::checkIntPlans(r.text, r.sizes, seed);
      else simdgen::testing::checkPlans(r.text, r.sizes, seed);
      ++accepted;
      // To run the draws as generated code too: configure a build with SIMDGEN_SPECS_DIR set to
      // this directory (tests/exec then builds and runs each one against its reference).
      if (const char* dir = std::getenv("SIMDGEN_RANDOM_CONTRACTIONS_DIR")) std::ofstream(std::string(dir) + "/rand" + std::to_string(seed) + ".json") << r.text;
    } catch (const SpecError& e) {
      ++refused;
      MESSAGE("refused by the spec: " << std::string(e.what()));
    } catch (const PlanError& e) {
      ++refused;
      MESSAGE("refused by the scheduler: " << std::string(e.what()));
    }
  }
  MESSAGE(accepted << " random contractions checked, " << refused << " refused");
  CHECK(accepted >= kSpecs * 2 / 3);  // the draw stays mostly within what the family accepts
}
