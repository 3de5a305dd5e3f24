// SPDX-License-Identifier: Apache-2.0
// Random maps: expressions drawn from a fixed seed over every dtype, operator, function and
// conversion (with its modes) of the language, typed as the spec requires (convert() between
// dtypes, numbers only beside an operand of a dtype), run through checkMapPlan at 128..2048 bits
// against the independent reference on random bytes (NaN, infinities, subnormals, both zeros and
// integer extremes all occur). A draw the parser refuses must be refused with a SpecError; anything
// else is a bug.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "map_check.h"
#include "random_draw.h"
#include "spec/spec.h"

using namespace simdgen;

namespace {

const std::vector<std::string> kInts = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"};
const std::vector<std::string> kTypes = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"};

bool isFloat(const std::string& t) { return t[0] == 'f'; }
bool isSigned(const std::string& t) { return t[0] == 'i' || isFloat(t); }
int bitsOf(const std::string& t) { return std::stoi(t.substr(1)); }

class MapDraw : public simdgen::testing::Draw {
 public:
  explicit MapDraw(uint64_t seed) : Draw(seed) {}
  std::string pick(const std::vector<std::string>& v) { return Draw::pick(v); }  // also from a braced list

  std::vector<std::pair<std::string, std::string>> inputs, params;  // (name, dtype)

  // An expression of dtype t, at most `depth` operations deep.
  std::string expr(const std::string& t, int depth) {
    if (depth == 0 || chance(20)) return leaf(t);
    const bool fl = isFloat(t);
    switch (below(fl ? 9 : 10)) {
      case 0: return "(" + expr(t, depth - 1) + pick({" + ", " - ", " * "}) + operand(t, depth - 1) + ")";
      case 1: return pick({"min(", "max(", "abs_diff("}) + expr(t, depth - 1) + ", " + operand(t, depth - 1) + ")";
      case 2: return pick({"abs(", "relu(", "-("}) + expr(t, depth - 1) + ")";
      case 3: {  // clamp with ordered bounds the dtype holds
        const std::string lo = isSigned(t) ? "-3" : "2", hi = fl ? "2.5" : "100";
        return "clamp(" + expr(t, depth - 1) + ", " + lo + ", " + hi + ")";
      }
      case 4: {  // select on a comparison of values of any dtype
        const std::string u = pick(kTypes);
        return "select(" + expr(u, depth - 1) + pick({" < ", " <= ", " > ", " >= ", " == ", " != "}) + operand(u, depth - 1) + ", " + expr(t, depth - 1) +
               ", " + expr(t, depth - 1) + ")";
      }
      case 5: return conversion(t, depth - 1);
      case 6: return conversion(t, depth - 1);
      default: break;
    }
    if (fl) {
      switch (below(3)) {
        case 0: return "(" + expr(t, depth - 1) + " / " + operand(t, depth - 1) + ")";
        case 1: return "fma(" + expr(t, depth - 1) + ", " + operand(t, depth - 1) + ", " + operand(t, depth - 1) + ")";
        default: return pick({"sqrt(", "floor(", "ceil(", "trunc(", "nearest("}) + expr(t, depth - 1) + ")";
      }
    }
    switch (below(5)) {
      case 3: {  // the absolute difference spelt out (recognised as abs_diff)
        const std::string a = leaf(t), b = leaf(t);
        return chance(50) ? "select(" + a + pick({" > ", " >= "}) + b + ", " + a + " - " + b + ", " + b + " - " + a + ")"
                          : "(max(" + a + ", " + b + ") - min(" + b + ", " + a + "))";
      }
      case 0: return "(" + expr(t, depth - 1) + pick({" & ", " | ", " ^ "}) + operand(t, depth - 1) + ")";
      case 1: return "~(" + expr(t, depth - 1) + ")";
      case 2: return "(" + expr(t, depth - 1) + pick({" << ", " >> "}) + std::to_string(below(bitsOf(t))) + ")";
      default: return pick({"add_sat(", "sub_sat(", "avg_round("}) + expr(t, depth - 1) + ", " + operand(t, depth - 1) + ")";
    }
  }

 private:
  // A second operand: a number now and then (it takes the other operand's dtype).
  std::string operand(const std::string& t, int depth) { return chance(25) ? number(t) : expr(t, depth); }

  std::string number(const std::string& t) {
    if (isFloat(t)) return pick({"0.5", "2", "-1.25", "3", "0.0"});
    return isSigned(t) ? pick({"-7", "3", "1", "0", "-1"}) : pick({"3", "1", "0", "9"});
  }

  std::string leaf(const std::string& t) {
    std::vector<std::string> same;
    for (const auto& [name, type] : inputs)
      if (type == t) same.push_back(name);
    for (const auto& [name, type] : params)
      if (type == t) same.push_back(name);
    if (!same.empty() && chance(70)) return pick(same);
    const auto& [name, from] = inputs[size_t(below(int64_t(inputs.size())))];
    return from == t ? name : convertText(name, from, t);
  }

  std::string conversion(const std::string& t, int depth) {
    std::string from = pick(kTypes);
    if (from == t) from = t == "f32" ? "i32" : "f32";
    return convertText(expr(from, depth), from, t);
  }

  // convert(x, t) with a mode the conversion takes, sometimes the default.
  std::string convertText(const std::string& x, const std::string& from, const std::string& t) {
    std::string mode;
    if (isFloat(from) && !isFloat(t)) {
      mode = pick({"", "trunc", "nearest", "floor", "ceil"});
    } else if (!isFloat(from) && !isFloat(t)) {
      const bool widening = bitsOf(t) > bitsOf(from) && (isSigned(t) == isSigned(from) || (!isSigned(from) && isSigned(t)));
      if (!widening) mode = pick({"", "wrap", "sat"});
    }
    return "convert(" + x + ", " + t + (mode.empty() ? "" : ", " + mode) + ")";
  }
};

// A rank-2 input's layout of its own (or none): strided, repeated along the row (stride 0) or
// down the columns (row_stride 0), column-major, at static or runtime strides.
std::string layout(MapDraw& d, int k) {
  const std::string s = "\"s" + std::to_string(k) + "\"", rs = "\"rs" + std::to_string(k) + "\"";
  switch (d.below(8)) {
    case 0: return R"(, "stride": 0)";
    case 1: return R"(, "row_stride": 0)";
    case 2: return ", \"stride\": " + d.pick({"2", "3"});
    case 3: return ", \"stride\": " + s;
    case 4: return ", \"stride\": " + s + ", \"row_stride\": 1";  // column-major
    case 5: return ", \"row_stride\": " + rs;
    case 6: return ", \"stride\": " + s + ", \"row_stride\": " + rs;
    default: return "";
  }
}

// A random map spec; rank 2 (`twoD`): runtime rows and columns, a runtime row stride or none,
// inputs with layouts of their own.
std::string randomMap(uint64_t seed, bool twoD = false) {
  MapDraw d(seed);
  const int inputs = int(1 + d.below(3)), outputs = int(1 + d.below(2));
  std::string in = "[";
  std::vector<bool> ownLayout;
  for (int k = 0; k < inputs; ++k) {
    d.inputs.push_back({"x" + std::to_string(k), d.pick(kTypes)});
    const std::string own = twoD ? layout(d, k) : "";
    ownLayout.push_back(!own.empty());
    in += std::string(k ? ", " : "") + R"({"name": ")" + d.inputs.back().first + R"(", "dtype": ")" + d.inputs.back().second + "\"" + own + "}";
  }
  in += "]";
  std::string params;
  if (d.chance(30)) {
    d.params.push_back({"alpha", d.pick(kTypes)});
    params = R"(,
  "params": [{"name": "alpha", "dtype": ")" + d.params.back().second + "\"}]";
  }
  std::string out = "[";
  for (int k = 0; k < outputs; ++k) {
    const std::string t = d.chance(60) ? d.inputs[size_t(d.below(inputs))].second : d.pick(kTypes);
    std::string inPlace;
    for (size_t i = 0; i < d.inputs.size(); ++i)  // in place over an input laid out as the outputs are
      if (d.inputs[i].second == t && !ownLayout[i] && inPlace.empty() && k == 0 && d.chance(30))
        inPlace = R"(, "in_place": ")" + d.inputs[i].first + "\"";
    out += std::string(k ? ",\n              " : "") + R"({"name": "o)" + std::to_string(k) + R"(", "dtype": ")" + t + R"(", "expr": ")" +
           d.expr(t, int(1 + d.below(4))) + "\"" + inPlace + "}";
  }
  out += "]";
  const std::string shape = !twoD ? R"(["n"])" : d.chance(50) ? R"(["nr", "nc"],
  "row_stride": "ns")" : R"(["nr", "nc"])";
  return "{\n  \"simdgen\": 1,\n  \"name\": \"rmap" + std::to_string(seed) + "\",\n  \"kind\": \"map\",\n  \"shape\": " + shape + ",\n  \"inputs\": " + in + params +
         ",\n  \"outputs\": " + out + ",\n  \"targets\": [\"avx512\", \"avx2+fma\", \"sve\", \"sve2\", \"neon\", \"scalar\"]" +
         (d.chance(30) ? ",\n  \"tail\": \"scalar\"" : "") + "\n}\n";
}

// Draws `count` random maps (rank 2 with `twoD`), checks each one the parser accepts with
// check(text, seed) and, where $SIMDGEN_RANDOM_MAPS_DIR is set (as for the random
// contractions), writes it there as <prefix><seed>.json to be built as code. A draw the parser
// refuses must be refused with a SpecError; at least two thirds must be accepted.
template <class Check>
void checkDraws(int count, bool twoD, const std::string& prefix, Check check) {
  int accepted = 0, refused = 0;
  for (uint64_t seed = 1; seed <= uint64_t(count); ++seed) {
    const std::string text = randomMap(twoD ? 100000 + seed : seed, twoD);
    CAPTURE(text);
    try {
      parseSpecText(text, "t.json");
    } catch (const SpecError& e) {
      ++refused;
      MESSAGE("refused by the spec: " << std::string(e.what()));
      continue;
    }
    check(text, seed);
    ++accepted;
    if (const char* dir = std::getenv("SIMDGEN_RANDOM_MAPS_DIR")) std::ofstream(std::string(dir) + "/" + prefix + std::to_string(seed) + ".json") << text;
  }
  MESSAGE(accepted << std::string(twoD ? " random 2-D maps checked, " : " random maps checked, ") << refused << " refused");
  CHECK(accepted >= count * 2 / 3);
}

}  // namespace

TEST_CASE("map plans: random expressions agree with the reference at 128..2048 bits, or are refused with a message") {
  checkDraws(500, false, "rmap", [](const std::string& text, uint64_t seed) {
    for (int bits : {128, 256, 512, 1024, 2048})
      for (int64_t n : {0, 1, 7, 16, 17, 33, 100}) simdgen::testing::checkMapPlan(text, bits, n, seed * 10000 + uint64_t(bits + n));
  });
}

TEST_CASE("map plans: random 2-D maps over strided, repeated and column-major inputs agree with the reference, or are refused with a message") {
  // The same expressions over rows x cols with a runtime row stride (or contiguous rows) and
  // inputs laid out on their own: every stride of 0..7 and rows + 1, static or runtime.
  struct Size {
    int64_t rows, cols, pad;
  };
  checkDraws(200, true, "rmap2d", [](const std::string& text, uint64_t seed) {
    for (int bits : {128, 256, 512, 1024, 2048})
      for (const Size& z : {Size{0, 5, 1}, Size{3, 0, 2}, Size{1, 1, 0}, Size{3, 17, 3}, Size{2, 33, 0}, Size{4, 7, 9}})
        simdgen::testing::checkMapPlan2D(text, bits, z.rows, z.cols, z.pad, seed * 10000 + uint64_t(bits + z.cols * 7 + z.rows));
  });
}
