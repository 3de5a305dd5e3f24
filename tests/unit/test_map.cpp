// SPDX-License-Identifier: Apache-2.0
// The map family: spec errors point at the character of the expression, and every plan (at
// vector lengths 128..2048 bits, both tails) computes what the independent reference computes.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "emit/emitter.h"
#include "map_check.h"
#include "plan/family.h"
#include "sim/interpreter.h"
#include "spec/spec.h"
#include "spec_errors.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

std::string mapSpec(const std::string& outputs, const std::string& extra = "",
                    const std::string& inputs = R"J([{"name": "x", "dtype": "f32"}, {"name": "y", "dtype": "f32"}])J") {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"m\",\n  \"kind\": \"map\",\n  \"shape\": [\"n\"],\n  \"inputs\": " + inputs +
         ",\n  \"outputs\": " + outputs + extra + "\n}\n";
}

using simdgen::testing::errorOf;

void checkError(const std::string& text, const std::string& pointer, int column, const std::string& part) {
  const SpecError e = errorOf(text);
  CHECK(e.pointer == pointer);
  if (column) CHECK(e.column == column);
  CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
}

}  // namespace

TEST_CASE("map spec: expression errors point at the offending character") {
  // Line 6 is the outputs line; the expression starts after `"expr": "`.
  const std::string head = R"J([{"name": "o", "dtype": "f32", "expr": ")J";
  const int col0 = int(std::string("  \"outputs\": ").size() + head.size()) + 1;
  auto out = [&](const std::string& e) { return head + e + "\"}]"; };
  checkError(mapSpec(out("x * * 2")), "/outputs/0/expr", col0 + 4, "expected a number, an input name");
  checkError(mapSpec(out("x + q")), "/outputs/0/expr", col0 + 4, "unknown name 'q'; the inputs are: x, y");
  checkError(mapSpec(out("frob(x)")), "/outputs/0/expr", col0, "unknown function 'frob'; allowed functions: fma, min");
  checkError(mapSpec(out("convert(x, 1)")), "/outputs/0/expr", col0 + 11, "convert()'s second argument is a dtype, one of: i8, u8");
  checkError(mapSpec(out("min(x)")), "/outputs/0/expr", col0, "min() takes 2 arguments");
  checkError(mapSpec(out("x // 2")), "/outputs/0/expr", col0 + 3, "expected a number, an input name");
  checkError(mapSpec(out("(x + y")), "/outputs/0/expr", col0 + 6, "expected ')'");
  checkError(mapSpec(out("x > y")), "/outputs/0/expr", col0 + 2, "unexpected '>'");
  checkError(mapSpec(out("select(x, x, y)")), "/outputs/0/expr", col0 + 8, "select's first argument is a comparison");
}

TEST_CASE("map spec: dtypes, widths, numbers, in_place and keys are checked") {
  const std::string int_inputs = R"J([{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "u8"}])J";
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "a + b"}])J", "", int_inputs), "/outputs/0/expr", 0,
             "has dtype u8 but an earlier one");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "a + 300"}])J", "", int_inputs), "/outputs/0/expr", 0,
             "number 300 is not representable in i8");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "a * 1.5"}])J", "", int_inputs), "/outputs/0/expr", 0, "is not an integer");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "fma(a, a, a)"}])J", "", int_inputs), "/outputs/0/expr", 0,
             "fma() is defined on floats");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "u8", "expr": "a"}])J", "", int_inputs), "/outputs/0/expr", 0,
             "the expression has dtype i8 but the output is u8");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i16", "expr": "a"}])J", "", int_inputs), "/outputs/0/expr", 0,
             "the expression has dtype i8 but the output is i16; convert it: convert(..., i16)");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "u8", "expr": "b", "in_place": "a"}])J", "", int_inputs), "/outputs/0/in_place", 0,
             "in-place needs the same dtype");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "u8", "expr": "b", "in_place": "bb"}])J", "", int_inputs), "/outputs/0/in_place", 0,
             "did you mean \"b\"");
  checkError(mapSpec(R"J([{"name": "a", "dtype": "u8", "expr": "b"}])J", "", int_inputs), "/outputs/0/name", 0, "already used");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x"}])J", ",\n  \"op\": \"add\""), "/op", 0, "unknown key \"op\"");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x"}])J", ",\n  \"tail\": \"none\""), "/tail", 0,
             "allowed: predicated, scalar");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "a / 2"}])J", "", int_inputs), "/outputs/0/expr", 0,
             "'/' is defined on floats only, but its operands are i8");
}

TEST_CASE("map spec: fma() without a targets list picks avx2+fma, and a listed avx2 gets an error that says what to write") {
  const std::string fma = R"J([{"name": "o", "dtype": "f32", "expr": "fma(x, 2, y)"}])J";
  const KernelSpec spec = parseSpecText(mapSpec(fma), "t.json");
  std::vector<std::string> spellings;
  for (const TargetRequest& t : spec.targets) spellings.push_back(t.spelling());
  CHECK(std::count(spellings.begin(), spellings.end(), "avx2+fma") == 1);
  CHECK(std::count(spellings.begin(), spellings.end(), "avx2") == 0);
  for (const TargetRequest& t : spec.targets) CHECK_NOTHROW(buildPlan(spec, makeTarget(t)));
  const KernelSpec plain = parseSpecText(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x * 2 + y"}])J"), "t.json");
  CHECK(std::any_of(plain.targets.begin(), plain.targets.end(), [](const TargetRequest& t) { return t.spelling() == "avx2"; }));
  const KernelSpec listed = parseSpecText(mapSpec(fma, ",\n  \"targets\": [\"avx2\"]"), "t.json");
  try {
    (void)buildPlan(listed, makeTarget(listed.targets.at(0)));
    FAIL("fma() on plain avx2 built a plan");
  } catch (const std::exception& e) {
    CHECK_MESSAGE(std::string(e.what()).find("use target \"avx2+fma\" instead of \"avx2\"") != std::string::npos, e.what());
  }
}

TEST_CASE("map spec: sqrt and the roundings take one float") {
  const std::string ints = R"J([{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "u8"}])J";
  const std::string head = R"J([{"name": "o", "dtype": "f32", "expr": ")J";
  const int col0 = int(std::string("  \"outputs\": ").size() + head.size()) + 1;
  auto out = [&](const std::string& e) { return head + e + "\"}]"; };
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "sqrt(a)"}])J", "", ints), "/outputs/0/expr", 0,
             "sqrt() is defined on floats, but its operand is i8 (convert it to a float first: sqrt(convert(x, f32)))");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "u8", "expr": "floor(b)"}])J", "", ints), "/outputs/0/expr", 0,
             "floor() is defined on floats, but its operand is u8 (an integer is already integral; convert(x, u8, floor) rounds a float");
  checkError(mapSpec(out("x + nearest(x, y)")), "/outputs/0/expr", col0 + 4, "nearest() takes 1 argument, found 2");
  checkError(mapSpec(out("ceil()")), "/outputs/0/expr", col0 + 5, "unexpected ')'; expected a number, an input name");
  checkError(mapSpec(out("trunc + x")), "/outputs/0/expr", col0, "unknown name 'trunc' (a function: call it with parentheses)");
  checkError(mapSpec(out("round(x)")), "/outputs/0/expr", col0,
             "allowed functions: fma, min, max, clamp, relu, abs, select, convert, sqrt, floor, ceil, trunc, nearest, add_sat, sub_sat, avg_round, abs_diff");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i32", "expr": "floor(x)"}])J"), "/outputs/0/expr", 0,
             "the expression has dtype f32 but the output is i32; convert it: convert(..., i32)");
}

TEST_CASE("map spec: add_sat, sub_sat and avg_round take two integers of the output's dtype") {
  const std::string ints = R"J([{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "u8"}])J";
  const std::string head = R"J([{"name": "o", "dtype": "f32", "expr": ")J";
  const int col0 = int(std::string("  \"outputs\": ").size() + head.size()) + 1;
  auto out = [&](const std::string& e) { return head + e + "\"}]"; };
  checkError(mapSpec(out("add_sat(x, y)")), "/outputs/0/expr", col0,
             "add_sat() is defined on integers, but its operands are f32 (float arithmetic does not wrap: write a + b)");
  checkError(mapSpec(out("x * sub_sat(x, y)")), "/outputs/0/expr", col0 + 4, "sub_sat() is defined on integers, but its operands are f32");
  checkError(mapSpec(out("avg_round(x, y)")), "/outputs/0/expr", col0, "(write (a + b) * 0.5 for floats)");
  checkError(mapSpec(out("avg_round(x)")), "/outputs/0/expr", col0, "avg_round() takes 2 arguments, found 1");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "add_sat(a, b)"}])J", "", ints), "/outputs/0/expr", 0,
             "has dtype u8 but an earlier one");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "i16", "expr": "add_sat(a, a)"}])J", "", ints), "/outputs/0/expr", 0,
             "the expression has dtype i8 but the output is i16; convert it: convert(..., i16)");
  CHECK_NOTHROW(parseSpecText(mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "avg_round(add_sat(a, 100), sub_sat(-a, 1))"}])J", "", ints), "t.json"));
}

TEST_CASE("map spec: widened clamps and means of two integers become add_sat, sub_sat and avg_round, near misses stay") {
  const std::string inputs = R"J([{"name": "a", "dtype": "u8"}, {"name": "b", "dtype": "u8"}, {"name": "s", "dtype": "i16"},
                                  {"name": "t", "dtype": "i16"}])J";
  auto rewritten = [&](const std::string& dtype, const std::string& expr) {
    const KernelSpec spec = parseSpecText(mapSpec(R"J([{"name": "o", "dtype": ")J" + dtype + R"J(", "expr": ")J" + expr + R"J("}])J", "", inputs), "t.json");
    return toString(spec.mapOutputs[0].expr, spec.mapInputs, spec.mapParams);
  };
  const std::string A = "convert(a, i16)", B = "convert(b, i16)", S = "convert(s, i32)", T = "convert(t, i32)";
  CHECK(rewritten("u8", "convert(min(" + A + " + " + B + ", 255), u8)") == "add_sat(a, b)");
  CHECK(rewritten("u8", "convert(select(" + A + " + " + B + " > 255, 255, " + A + " + " + B + "), u8)") == "add_sat(a, b)");
  CHECK(rewritten("u8", "convert(select(" + A + " + " + B + " <= 255, " + A + " + " + B + ", 255), u8, sat)") == "add_sat(a, b)");
  CHECK(rewritten("u8", "convert(max(" + A + " - " + B + ", 0), u8)") == "sub_sat(a, b)");
  CHECK(rewritten("u8", "convert(select(" + A + " - " + B + " < 0, 0, " + A + " - " + B + "), u8)") == "sub_sat(a, b)");
  CHECK(rewritten("u8", "convert((" + A + " + " + B + " + 1) >> 1, u8)") == "avg_round(a, b)");
  CHECK(rewritten("i16", "convert(clamp(" + S + " + " + T + ", -32768, 32767), i16)") == "add_sat(s, t)");
  CHECK(rewritten("i16", "convert(max(min(" + S + " - " + T + ", 32767), -32768), i16)") == "sub_sat(s, t)");
  CHECK(rewritten("i16", "convert(select(" + S + " - " + T + " > 32767, 32767, select(" + S + " - " + T + " < -32768, -32768, " + S +
                             " - " + T + ")), i16)") == "sub_sat(s, t)");
  CHECK(rewritten("i16", "convert((1 + (" + S + " + " + T + ")) >> 1, i16)") == "avg_round(s, t)");
  // Not the idioms: another bound, a difference in an unsigned type, the mean without + 1, a
  // select that keeps the bound on the wrong side, one bound only for a signed type.
  CHECK(rewritten("u8", "convert(min(" + A + " + " + B + ", 254), u8)") != "add_sat(a, b)");
  CHECK(rewritten("u8", "convert(max(convert(a, u16) - convert(b, u16), 0), u8)").find("sub_sat") == std::string::npos);
  CHECK(rewritten("u8", "convert((" + A + " + " + B + ") >> 1, u8)").find("avg_round") == std::string::npos);
  CHECK(rewritten("u8", "convert(select(" + A + " + " + B + " > 255, " + A + " + " + B + ", 255), u8)").find("add_sat") == std::string::npos);
  CHECK(rewritten("i16", "convert(min(" + S + " + " + T + ", 32767), i16)").find("add_sat") == std::string::npos);
}

TEST_CASE("map spec: absolute differences spelt out become abs_diff, near misses stay") {
  const std::string inputs = R"J([{"name": "a", "dtype": "u8"}, {"name": "b", "dtype": "u8"}, {"name": "s", "dtype": "i64"},
                                  {"name": "t", "dtype": "i64"}, {"name": "x", "dtype": "f32"}, {"name": "y", "dtype": "f32"}])J";
  auto rewritten = [&](const std::string& dtype, const std::string& expr) {
    const KernelSpec spec = parseSpecText(mapSpec(R"J([{"name": "o", "dtype": ")J" + dtype + R"J(", "expr": ")J" + expr + R"J("}])J", "", inputs), "t.json");
    return toString(spec.mapOutputs[0].expr, spec.mapInputs, spec.mapParams);
  };
  CHECK(rewritten("u8", "abs_diff(a, b)") == "abs_diff(a, b)");
  CHECK(rewritten("u8", "select(a > b, a - b, b - a)") == "abs_diff(a, b)");
  CHECK(rewritten("u8", "select(a >= b, a - b, b - a)") == "abs_diff(a, b)");
  CHECK(rewritten("u8", "select(b < a, a - b, b - a)") == "abs_diff(a, b)");
  CHECK(rewritten("u8", "select(a <= b, b - a, a - b)") == "abs_diff(b, a)");
  CHECK(rewritten("i64", "max(s, t) - min(t, s)") == "abs_diff(s, t)");
  CHECK(rewritten("i64", "max(s, t) - min(s, t) + 1") == "(abs_diff(s, t) + 1ll)");
  CHECK(rewritten("f32", "abs(x - y)") == "abs_diff(x, y)");
  // C's promoted a > b ? a - b : b - a, stored to the narrow type (wrapped, or saturated to an
  // unsigned type, which holds every distance).
  const std::string A = "convert(a, i32)", B = "convert(b, i32)";
  const std::string promoted = "select(" + A + " > " + B + ", " + A + " - " + B + ", " + B + " - " + A + ")";
  CHECK(rewritten("u8", "convert(" + promoted + ", u8)") == "abs_diff(a, b)");
  CHECK(rewritten("u8", "convert(" + promoted + ", u8, sat)") == "abs_diff(a, b)");
  CHECK(rewritten("i32", promoted) == "abs_diff(convert(a, i32, wrap), convert(b, i32, wrap))");
  CHECK(rewritten("i64", "convert(max(convert(s, i32), convert(t, i32)) - min(convert(s, i32), convert(t, i32)), i64)").find("abs_diff(s, t)") ==
        std::string::npos);
  CHECK(rewritten("i64", "select(s > t, s - t, t - s) + select(s - 1 > t, (s - 1) - t, t - (s - 1))") ==
        "(abs_diff(s, t) + abs_diff((s - 1ll), t))");
  // Not the idiom: the branches the wrong way round, another operand, a comparison of a wider type,
  // float selects (NaN and -0.0 take the other branch), an integer abs of a difference (it wraps
  // first: abs(i8 127 - -128) is 1, the distance 255 wraps to -1), == as the test, max - max.
  CHECK(rewritten("u8", "select(a > b, b - a, a - b)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("u8", "select(a > b, a - b, b - b)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("u8", "select(convert(a, i16) > convert(b, i16), a - b, b - a)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("f32", "select(x > y, x - y, y - x)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("i64", "abs(s - t)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("u8", "select(a == b, a - b, b - a)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("i64", "max(s, t) - max(s, t)").find("abs_diff") == std::string::npos);
  CHECK(rewritten("i64", "max(s, t) - min(s, s)").find("abs_diff") == std::string::npos);
  // A signed distance saturated: abs_diff(i8 127, i8 -128) wraps to -1, the saturated 255 is 127.
  const std::string inputs8 = R"J([{"name": "c", "dtype": "i8"}, {"name": "d", "dtype": "i8"}])J";
  const KernelSpec sat = parseSpecText(
      mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "convert(abs_diff(convert(c, i16), convert(d, i16)), i8, sat)"}])J", "", inputs8), "t.json");
  CHECK(toString(sat.mapOutputs[0].expr, sat.mapInputs, sat.mapParams) == "convert(abs_diff(convert(c, i16), convert(d, i16)), i8, sat)");
}

TEST_CASE("map spec: bitwise operators and shifts take integers, and shift counts are numbers below the width") {
  const std::string ints = R"J([{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "u8"}])J";
  const std::string head = R"J([{"name": "o", "dtype": "i8", "expr": ")J";
  const int col0 = int(std::string("  \"outputs\": ").size() + head.size()) + 1;
  auto out = [&](const std::string& e) { return head + e + "\"}]"; };
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x & y"}])J"), "/outputs/0/expr", 0, "'&' is defined on integers only, but its operands are f32");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "~x"}])J"), "/outputs/0/expr", 0, "'~' is defined on integers only, but its operand is f32");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x + 0x10"}])J"), "/outputs/0/expr", 0, "hexadecimal number 0x10 is an integer");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "popcount(x)"}])J"), "/outputs/0/expr", 0,
             "popcount() counts the set bits of an integer, but its operand is f32");
  checkError(mapSpec(out("a << 8"), "", ints), "/outputs/0/expr", col0 + 5, "shift count 8 is out of range: a shift count is a number from 0 to 7");
  checkError(mapSpec(out("a >> 0x10"), "", ints), "/outputs/0/expr", col0 + 5, "shift count 0x10 is out of range");
  checkError(mapSpec(out("a << a"), "", ints), "/outputs/0/expr", col0 + 5, "a shift count is a number from 0 to 7");
  checkError(mapSpec(out("a >> -1"), "", ints), "/outputs/0/expr", col0 + 5, "a shift count is a number");
  checkError(mapSpec(out("a && a"), "", ints), "/outputs/0/expr", col0 + 2, "'&&' is not an operator here");
  checkError(mapSpec(out("a || a"), "", ints), "/outputs/0/expr", col0 + 2, "'||' is not an operator here");
  checkError(mapSpec(out("a & b"), "", ints), "/outputs/0/expr", col0 + 4, "has dtype u8 but an earlier one");
  checkError(mapSpec(out("a | 0x"), "", ints), "/outputs/0/expr", col0 + 4, "a hexadecimal number needs digits after 0x");
  checkError(mapSpec(out("a | 0x1g"), "", ints), "/outputs/0/expr", col0 + 7, "unexpected character 'g' in a hexadecimal number");
  checkError(mapSpec(out("a | 0x80"), "", ints), "/outputs/0/expr", col0 + 4, "number 0x80 is not representable in i8");
  checkError(mapSpec(out("a ^ 0x10000000000000000"), "", ints), "/outputs/0/expr", col0 + 4, "does not fit in 64 bits");
  // Comparisons bind loosest (unlike C): (a & 1) == 0.
  const KernelSpec ok = parseSpecText(mapSpec(out("select(a & 1 == 0, a >> 1, ~a)"), "", ints), "t.json");
  CHECK(ok.mapOutputs.size() == 1);
}

TEST_CASE("map spec: convert(x, dtype[, mode]) names a dtype and a mode that fits the conversion") {
  const std::string in = R"J([{"name": "a", "dtype": "i32"}, {"name": "f", "dtype": "f64"}])J";
  auto spec = [&](const std::string& dtype, const std::string& e) {
    return mapSpec(R"J([{"name": "o", "dtype": ")J" + dtype + R"J(", "expr": ")J" + e + "\"}]", "", in);
  };
  const int col0 = int(std::string(R"J(  "outputs": [{"name": "o", "dtype": "u8", "expr": ")J").size()) + 1;
  checkError(spec("u8", "convert(a, u7)"), "/outputs/0/expr", col0 + 11,
             "convert()'s second argument is a dtype, one of: i8, u8, i16, u16, i32, u32, i64, u64, f32, f64");
  checkError(spec("u8", "convert(a, u8, round)"), "/outputs/0/expr", col0 + 15, "convert()'s third argument is a mode: wrap or sat");
  checkError(spec("u8", "convert(a, u8, nearest)"), "/outputs/0/expr", col0 + 15,
             "mode nearest does not apply to a conversion from i32 to u8 (an integer to a narrower integer or one of the other "
             "signedness); allowed: wrap, sat");
  checkError(spec("i32", "convert(f, i32, sat)"), "/outputs/0/expr", 0, "allowed: trunc, nearest, floor, ceil");
  checkError(spec("f32", "convert(a, f32, nearest)"), "/outputs/0/expr", 0,
             "convert() from i32 to f32 takes no mode (a conversion to a float rounds to nearest, ties to even); write convert(x, f32)");
  checkError(spec("i64", "convert(a, i64, sat)"), "/outputs/0/expr", 0, "takes no mode (widening keeps the value");
  checkError(spec("u8", "convert(a)"), "/outputs/0/expr", col0, "convert() takes 2 or 3 arguments");
  checkError(spec("u8", "convert(7, u8)"), "/outputs/0/expr", col0 + 8, "convert() of a number");
  checkError(spec("u8", "convert(a, u16)"), "/outputs/0/expr", 0, "the expression has dtype u16 but the output is u8; convert it: convert(..., u8)");
  checkError(spec("f64", "f + a"), "/outputs/0/expr", 0, "has dtype i32 but an earlier one (column 1) has f64; all operands of one operation "
                                                         "have one dtype (convert one of them: convert(x, f64))");
  checkError(spec("f64", "cast(a, f64)"), "/outputs/0/expr", col0 + 1, "write convert(x, dtype)");
  // Accepted: every default, the modes that apply, conversions inside comparisons and select.
  for (const char* ok : {"convert(f, u8)", "convert(f, u8, nearest)", "convert(a, u8, sat)", "convert(a, u8)", "convert(convert(a, u32, sat), u8, wrap)",
                         "select(convert(a, f64) < f, convert(f, u8, floor), convert(a * 2, u8, sat) + 1)"})
    CHECK_NOTHROW(parseSpecText(spec("u8", ok), "t.json"));
  CHECK_NOTHROW(parseSpecText(spec("f64", "convert(a, f64) * f + convert(convert(f, i16, ceil), f64)"), "t.json"));
}

TEST_CASE("map spec: scalar params are named, typed and checked like inputs") {
  const std::string params = R"J(,
  "params": [{"name": "alpha", "dtype": "f32"}, {"name": "k", "dtype": "i32"}])J";
  auto out = [](const std::string& e) { return R"J([{"name": "o", "dtype": "f32", "expr": ")J" + e + "\"}]"; };
  const KernelSpec ok = parseSpecText(mapSpec(out("-alpha * x / y"), params), "t.json");
  REQUIRE(ok.mapParams.size() == 2);
  CHECK(ok.mapParams[0].name == "alpha");
  CHECK(ok.mapParams[1].dtype == DType::i32);
  CHECK(toString(ok.mapOutputs[0].expr, ok.mapInputs, ok.mapParams) == "(((-alpha) * x) / y)");
  checkError(mapSpec(out("x + beta"), params), "/outputs/0/expr", 0, "unknown name 'beta'; the inputs are: x, y; the params are: alpha, k");
  checkError(mapSpec(out("x * k"), params), "/outputs/0/expr", 0, "has dtype i32 but an earlier one");
  checkError(mapSpec(out("x"), R"J(,
  "params": [{"name": "y", "dtype": "f32"}])J"), "/params/0/name", 0, "already used");
  checkError(mapSpec(out("x"), R"J(,
  "params": [{"name": "o", "dtype": "f32"}])J"), "/outputs/0/name", 0, "already used");
  checkError(mapSpec(out("x"), R"J(,
  "params": {"name": "a"})J"), "/params", 0, "expected an array of scalar parameters");
  checkError(mapSpec(out("x"), R"J(,
  "params": [{"name": "a", "dtype": "f32", "value": 1}])J"), "/params/0/value", 0, "unknown key \"value\"");
  checkError(mapSpec(out("x"), R"J(,
  "params": [{"name": "int", "dtype": "f32"}])J"), "/params/0/name", 0, "");
}

using simdgen::testing::checkMapPlan;
using simdgen::testing::checkOutputs;

TEST_CASE("map plans: the interpreter agrees with the reference at 128..2048 bits, both tails") {
  const std::string f32 = mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "select(x < y, fma(x, 2, y), clamp(abs(x - y), -1, 3))"},
                                     {"name": "p", "dtype": "f32", "expr": "relu(x * y + 1)", "in_place": "x"}])J");
  const std::string i8 = mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "select(a != b, abs(a) * 3 - min(a, b), max(a, -7))"}])J", "",
                                 R"J([{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "i8"}])J");
  const std::string params = mapSpec(R"J([{"name": "o", "dtype": "f64", "expr": "-(alpha * x) / (y - alpha) + -y"},
                                        {"name": "p", "dtype": "f64", "expr": "select(x < alpha, -x, x / beta)"}])J",
                                     R"J(,
  "params": [{"name": "alpha", "dtype": "f64"}, {"name": "beta", "dtype": "f64"}])J",
                                     R"J([{"name": "x", "dtype": "f64"}, {"name": "y", "dtype": "f64"}])J");
  const std::string ints = mapSpec(R"J([{"name": "o", "dtype": "i16", "expr": "select(a < k, -a, a * k)"},
                                      {"name": "p", "dtype": "u16", "expr": "-b - mm"}])J",
                                   R"J(,
  "params": [{"name": "k", "dtype": "i16"}, {"name": "mm", "dtype": "u16"}])J",
                                   R"J([{"name": "a", "dtype": "i16"}, {"name": "b", "dtype": "u16"}])J");
  const std::string converts = mapSpec(R"J([{"name": "o", "dtype": "u8", "expr": "convert(convert(a, f32) * x, u8, nearest)"},
                                          {"name": "p", "dtype": "i32", "expr": "convert(x, i32, floor) - convert(a, i32)"},
                                          {"name": "q", "dtype": "i16", "expr": "convert(convert(x, i64, ceil), i16, sat)"},
                                          {"name": "r", "dtype": "u16", "expr": "convert(convert(x, i32), u16)"},
                                          {"name": "s", "dtype": "f64", "expr": "convert(convert(a, i64), f64) + convert(x, f64)"}])J",
                                       "", R"J([{"name": "a", "dtype": "u8"}, {"name": "x", "dtype": "f32"}])J");
  const std::string same = mapSpec(R"J([{"name": "o", "dtype": "u32", "expr": "convert(x, u32, nearest) + convert(a, u32, sat)"},
                                      {"name": "p", "dtype": "f32", "expr": "convert(a, f32) * x"},
                                      {"name": "q", "dtype": "i32", "expr": "convert(convert(x, u32, ceil), i32)"}])J",
                                   "", R"J([{"name": "a", "dtype": "i32"}, {"name": "x", "dtype": "f32"}])J");
  const std::string bits16 = mapSpec(R"J([{"name": "o", "dtype": "i16", "expr": "(a >> 3) ^ ~a & (a << 5) | 0x0F0F"},
                                        {"name": "p", "dtype": "u16", "expr": "(b >> 15) | (b << 1) ^ select((b & 3) == 1, b >> 2, ~b)"},
                                        {"name": "q", "dtype": "u8", "expr": "convert(b >> 8, u8) >> 3 | convert(a, u8) << 7"},
                                        {"name": "r", "dtype": "i16", "expr": "popcount(a) - popcount(a >> 3) + convert(popcount(convert(b, u8, wrap)), i16)"}])J",
                                     "", R"J([{"name": "a", "dtype": "i16"}, {"name": "b", "dtype": "u16"}])J");
  const std::string bits64 = mapSpec(R"J([{"name": "o", "dtype": "i64", "expr": "(a >> 63) ^ (a >> 1) ^ (a << 62)"},
                                        {"name": "p", "dtype": "u64", "expr": "(b >> 40 | b << 24) & ~0xF0F0F0F0F0F0F0F0"},
                                        {"name": "q", "dtype": "i8", "expr": "convert(a, i8) >> 7 ^ convert(b, i8, wrap) << 3 >> 2"},
                                        {"name": "r", "dtype": "u64", "expr": "popcount(b ^ 0xF0F0F0F0F0F0F0F0) * 3 + convert(popcount(a), u64, wrap)"}])J",
                                     "", R"J([{"name": "a", "dtype": "i64"}, {"name": "b", "dtype": "u64"}])J");
  // Inputs are random bytes: NaN, infinities, subnormals, zeros of both signs and ties all occur.
  const std::string math = mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "sqrt(x) + floor(x) * ceil(x)"},
                                      {"name": "p", "dtype": "f64", "expr": "sqrt(d) - trunc(d) + nearest(d)"},
                                      {"name": "q", "dtype": "f32", "expr": "nearest(x * 0.5) - trunc(convert(d, f32))"}])J",
                                   "", R"J([{"name": "x", "dtype": "f32"}, {"name": "d", "dtype": "f64"}])J");
  // Operands at the ends of each range (random bytes hit them, and the tests/exec extremes do).
  const std::string saturating = mapSpec(R"J([{"name": "o", "dtype": "i8", "expr": "avg_round(add_sat(a, b), sub_sat(a, b))"},
                                            {"name": "p", "dtype": "u16", "expr": "add_sat(c, d) ^ sub_sat(c, d) ^ avg_round(c, d)"},
                                            {"name": "q", "dtype": "i64", "expr": "add_sat(e, e) ^ sub_sat(e, -e) ^ avg_round(e, -e)"},
                                            {"name": "r", "dtype": "u32", "expr": "add_sat(convert(d, u32), 4294901760) ^ avg_round(convert(c, u32), 4294967295)"}])J",
                                         "", R"J([{"name": "a", "dtype": "i8"}, {"name": "b", "dtype": "i8"}, {"name": "c", "dtype": "u16"},
                                                  {"name": "d", "dtype": "u16"}, {"name": "e", "dtype": "i64"}])J");
  for (const std::string& tail : {std::string(""), std::string(",\n  \"tail\": \"scalar\"")})
    for (const std::string* base : {&f32, &i8, &params, &ints, &converts, &same, &bits16, &bits64, &math, &saturating}) {
      std::string text = *base;
      text.insert(text.rfind('\n', text.size() - 3), tail);
      for (int bits : {128, 256, 512, 1024, 2048})
        for (int64_t n : {0, 1, 3, 15, 16, 17, 63, 64, 65, 100, 257}) checkMapPlan(text, bits, n, uint64_t(bits * 1000 + n));
    }
}

TEST_CASE("map explain: every masked load and store names its predicate, and that predicate is a whilelt") {
  // The seed's B = A * 2 over 60 elements: the last vector is partial on every vector target but
  // NEON, whose 4 lanes divide 60 (no tail: the dead partial vector is dropped).
  const std::string text = mapSpec(R"J([{"name": "b", "dtype": "f32", "expr": "x * 2"}])J", "",
                                   R"J([{"name": "x", "dtype": "f32"}])J");
  std::string fixed = text;
  fixed.replace(fixed.find("[\"n\"]"), 5, "[60]");
  const KernelSpec spec = parseSpecText(fixed, "t.json");
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "sve2"}) {
    CAPTURE(isa);
    const std::string printed = buildPlan(spec, makeTarget(TargetRequest{isa, {}})).print();
    CAPTURE(printed);
    std::set<std::string> whilelts;
    int maskedLoads = 0, maskedStores = 0, loads = 0;
    std::istringstream lines(printed);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("= whilelt(") != std::string::npos) {
        const size_t b = line.find_first_not_of(' ');
        whilelts.insert(line.substr(b, line.find(' ', b) - b));
      }
      const bool load = line.find("= load in0[") != std::string::npos, store = line.find("store out0[") != std::string::npos;
      loads += load;
      const size_t at = line.find(" if ");
      if (at == std::string::npos || !(load || store)) continue;
      const std::string pred = line.substr(at + 4, line.find(' ', at + 4) - at - 4);
      CHECK_MESSAGE(whilelts.count(pred), "predicate '" << pred << "' is not defined by a whilelt before: " << line);
      maskedLoads += load, maskedStores += store;
    }
    if (std::string(isa) == "neon") {
      CHECK(maskedLoads + maskedStores == 0);
      CHECK(loads == 1);
      continue;
    }
    if (std::string(isa) == "avx2") {
      // 60 elements: whole vectors (4 per iteration, then one), then the last whole vector again,
      // ending at element 60; a row this long never takes the masked partial vector.
      CHECK(maskedLoads + maskedStores == 0);
      CHECK(loads == 4 + 1 + 1);
      CHECK(printed.find("load in0[kCols - 8]") != std::string::npos);
      CHECK(printed.find("store out0[kCols - 8]") != std::string::npos);
      continue;
    }
    CHECK(maskedLoads >= 1);
    CHECK(maskedStores >= 1);
    // SVE: one whilelt-governed loop, every load masked; AVX-512, AVX2: whole vectors (unrolled,
    // then one at a time), then one masked partial vector.
    if (std::string(isa).rfind("sve", 0) == 0) {
      CHECK(maskedLoads == loads);
    } else {
      CHECK(maskedLoads == 1);
      CHECK(loads == 1 + 1);  // 60 elements: AVX-512 has no 64-element step
    }
  }
}

TEST_CASE("map plan: AVX2 rows of a vector or more end with their last whole vector again, unless an output is in place") {
  const std::string text = mapSpec(R"J([{"name": "b", "dtype": "f32", "expr": "x * 2"}])J", "", R"J([{"name": "x", "dtype": "f32"}])J");
  const std::string printed = buildPlan(parseSpecText(text, "t.json"), makeTarget(TargetRequest{"avx2", {}})).print();
  CAPTURE(printed);
  CHECK(printed.find("if n >= 8") != std::string::npos);
  CHECK(printed.find("load in0[n - 8]") != std::string::npos);
  CHECK(printed.find("if n < 8") != std::string::npos);
  CHECK(printed.find("= whilelt(i, n) partial") != std::string::npos);
  // In place: an element rewritten after its input was overwritten would be doubled twice.
  const std::string inPlace = mapSpec(R"J([{"name": "b", "dtype": "f32", "expr": "x * 2", "in_place": "x"}])J", "",
                                      R"J([{"name": "x", "dtype": "f32"}])J");
  const std::string shared = buildPlan(parseSpecText(inPlace, "t.json"), makeTarget(TargetRequest{"avx2", {}})).print();
  CAPTURE(shared);
  CHECK(shared.find("n - 8") == std::string::npos);
  CHECK(shared.find("= whilelt(i, n) partial") != std::string::npos);
  // Other targets keep their masked (AVX-512, SVE) or piecewise (NEON) tails.
  for (const char* isa : {"avx512", "neon", "sve"}) {
    CAPTURE(isa);
    CHECK(buildPlan(parseSpecText(text, "t.json"), makeTarget(TargetRequest{isa, {}})).print().find("n - ") == std::string::npos);
  }
}

TEST_CASE("map spec: inputs with strides of their own") {
  auto out = [](const std::string& e) { return R"J([{"name": "o", "dtype": "f32", "expr": ")J" + e + "\"}]"; };
  const KernelSpec ok = parseSpecText(
      mapSpec(out("x + y + z"), "", R"J([{"name": "x", "dtype": "f32", "stride": "incx"}, {"name": "y", "dtype": "f32", "stride": 0},
         {"name": "z", "dtype": "f32", "stride": "incx"}])J"),
      "t.json");
  REQUIRE(ok.mapInputLayouts.size() == 3);
  CHECK(ok.mapInputLayouts[0].stride->name == "incx");
  CHECK(*ok.mapInputLayouts[1].stride->value == 0);
  CHECK(ok.mapStrideNames == std::vector<std::string>{"incx"});  // one parameter, shared
  // The plan: one extent parameter for incx after n, gathers for x and z, a broadcast for y.
  const ir::Plan plan = buildPlan(ok, makeTarget(TargetRequest{"avx512", {}}));
  std::vector<std::string> extents;
  for (const ir::Param& p : plan.params)
    if (p.kind == ir::Param::Kind::extent) extents.push_back(p.publicName);
  CHECK(extents == std::vector<std::string>{"n", "incx"});
  const std::string printed = plan.print();
  CHECK(printed.find("gather_rows in0[") != std::string::npos);
  CHECK(printed.find("load_broadcast in1[") != std::string::npos);
  checkError(mapSpec(out("x"), "", R"J([{"name": "x", "dtype": "f32", "stride": -2}])J"), "/inputs/0/stride", 0, "from 0 to 2^40");
  checkError(mapSpec(out("x"), "", R"J([{"name": "x", "dtype": "f32", "stride": "y"}, {"name": "y", "dtype": "f32"}])J"), "/inputs/1/name",
             0, "already used");
  checkError(mapSpec(out("x"), "", R"J([{"name": "x", "dtype": "f32", "row_stride": 3}])J"), "/inputs/0/row_stride", 0, "rank-2");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "stride": 0}])J", "", R"J([{"name": "x", "dtype": "f32"}])J"),
             "/outputs/0/stride", 0, "expected 1 or more");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "reduce": "add", "stride": 2}])J", "", R"J([{"name": "x", "dtype": "f32"}])J"),
             "/outputs/0/stride", 0, "applies to element-wise outputs");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "row_stride": 2}])J", "", R"J([{"name": "x", "dtype": "f32"}])J"),
             "/outputs/0/row_stride", 0, "rank-2");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "stride": "x"}])J", "", R"J([{"name": "x", "dtype": "f32"}])J"),
             "/outputs/0/stride", 0, "already used");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "in_place": "x"}])J", "",
                     R"J([{"name": "x", "dtype": "f32", "stride": 2}])J"),
             "/outputs/0/in_place", 0, "the same layout");
  checkError(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "in_place": "x", "stride": 3}])J", "",
                     R"J([{"name": "x", "dtype": "f32", "stride": 2}])J"),
             "/outputs/0/in_place", 0, "the same layout");
  // The same layout, spelled with and without a stride of 1, shares memory.
  CHECK_NOTHROW(parseSpecText(mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x", "in_place": "x", "stride": 1}])J", "",
                                      R"J([{"name": "x", "dtype": "f32"}])J"),
                              "t.json"));
}

TEST_CASE("map plans with strided outputs: the interpreter writes exactly the strided elements at 128..2048 bits, on NEON and SVE") {
  // Static and runtime output strides, in place over a strided input, beside contiguous outputs,
  // mixed widths (bytes beside f64 lanes: unpacked on SVE).
  struct Kernel {
    std::string inputs, outputs;
  };
  const std::vector<Kernel> kernels = {
      {R"J([{"name": "a", "dtype": "u8", "stride": 4}])J", R"J([{"name": "o", "dtype": "u8", "expr": "255 - a", "in_place": "a", "stride": 4}])J"},
      {R"J([{"name": "a", "dtype": "f32", "stride": "s"}, {"name": "b", "dtype": "f32"}])J",
       R"J([{"name": "o", "dtype": "f32", "expr": "a * 2 + b", "in_place": "a", "stride": "s"}, {"name": "p", "dtype": "f32", "expr": "b - 1"}])J"},
      {R"J([{"name": "a", "dtype": "i16"}, {"name": "b", "dtype": "f64", "stride": "t"}])J",
       R"J([{"name": "o", "dtype": "i16", "expr": "a * 3", "stride": "t"}, {"name": "p", "dtype": "f64", "expr": "b * 0.5", "stride": 3},
            {"name": "q", "dtype": "u8", "expr": "convert(a, u8)", "stride": "s"}])J"},
      {R"J([{"name": "a", "dtype": "i64"}])J", R"J([{"name": "o", "dtype": "i64", "expr": "a + 1", "stride": 2}])J"},
  };
  for (const Kernel& kernel : kernels)
    for (const char* tail : {"predicated", "scalar"}) {
      const KernelSpec spec = parseSpecText(mapSpec(kernel.outputs, std::string(",\n  \"tail\": \"") + tail + "\"", kernel.inputs), "t.json");
      for (int bits : {128, 256, 512, 1024, 2048, 0, -1})
        for (int64_t n : {0, 1, 5, 16, 17, 21, 22, 64, 65, 257})
          for (const auto& [s, t] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {1, 2}, {2, 3}, {5, 1}}) {
            const std::map<std::string, int64_t> strideOf{{"s", s}, {"t", t}};
            CAPTURE(kernel.outputs);
            CAPTURE(bits);
            CAPTURE(n);
            CAPTURE(s);
            CAPTURE(t);
            CAPTURE(tail);
            const ir::Plan plan = buildPlan(spec, bits > 0 ? makeGenericTarget(bits) : makeTarget({bits ? "sve" : "neon", {}}));
            if (bits > 0) CHECK(plan.print().find("scatter_rows out") != std::string::npos);
            std::map<std::string, int64_t> bindings{{"n", n}};
            for (const ir::Param& p : plan.params)
              if (strideOf.count(p.publicName)) bindings[p.name] = strideOf.at(p.publicName);
            auto strideValue = [&](const MapInputLayout& l) { return !l.stride ? 1 : l.stride->isStatic() ? *l.stride->value : strideOf.at(l.stride->name); };
            std::vector<int64_t> inStride, outStride;
            for (const MapInputLayout& l : spec.mapInputLayouts) inStride.push_back(strideValue(l));
            for (const MapInputLayout& l : spec.mapOutputLayouts) outStride.push_back(strideValue(l));
            for (int vscale : bits < 0 ? std::vector<int>{1, 2, 4, 16} : std::vector<int>{1}) {
              CAPTURE(vscale);
              std::mt19937_64 rng(uint64_t(bits * 7919 + n * 31 + s * 5 + t + vscale));
              std::vector<std::vector<unsigned char>> mem;
              std::vector<sim::Buffer> buffers;
              for (size_t k = 0; k < plan.tensors.size(); ++k) {
                const ir::Tensor& x = plan.tensors[k];
                const int64_t step = k < inStride.size() ? inStride[k] : outStride[k - inStride.size()];
                const int64_t span = n == 0 ? 0 : (n - 1) * step + 1;
                mem.emplace_back(size_t(span * int64_t(bitsOf(x.dtype)) / 8 + 1));
                for (auto& b : mem.back()) b = x.output ? 0xA5 : static_cast<unsigned char>(rng() >> 40);
                buffers.push_back({x.name, x.output ? nullptr : mem[k].data(), x.output ? mem[k].data() : nullptr, size_t(span)});
              }
              // In place: the output is the input's memory; the reference reads the inputs as they were.
              const std::vector<std::vector<unsigned char>> before = mem;
              for (size_t o = 0; o < spec.mapOutputs.size(); ++o)
                if (const int in = spec.mapOutputs[o].inPlace; in >= 0) buffers[spec.mapInputs.size() + o].out = mem[size_t(in)].data();
              sim::runPlan(plan, bindings, buffers, vscale);  // bounds-checked: nothing outside the spans is touched
              for (size_t o = 0; o < spec.mapOutputs.size(); ++o) {
                const int in = spec.mapOutputs[o].inPlace;
                if (in < 0) continue;
                // The result in the input's memory: its elements are the output's, every other byte keeps
                // the input's value (read as the sentinel by the check).
                const int64_t size = bitsOf(spec.mapOutputs[o].dtype) / 8;
                std::vector<unsigned char>& result = mem[spec.mapInputs.size() + o];
                result.assign(mem[size_t(in)].size(), 0xA5);
                for (size_t b = 0; b < result.size(); ++b) {
                  const int64_t e = int64_t(b) / size;
                  if (e % outStride[o] == 0 && e / outStride[o] < n) result[b] = mem[size_t(in)][b];
                  else REQUIRE_MESSAGE(mem[size_t(in)][b] == before[size_t(in)][b], "byte " << b << " of the in-place input changed");
                }
                mem[size_t(in)] = before[size_t(in)];
              }
              checkOutputs(spec, mem, 1, n, n, std::vector<int64_t>(inStride.size(), 0), inStride, {}, outStride);
            }
          }
    }
}

TEST_CASE("map plans with strided inputs: the interpreter reads exactly the strided elements at 128..2048 bits, on NEON and SVE") {
  // A runtime stride and a static one; some kernels mix widths (bytes beside f64 lanes). `neon`, `sve`:
  // whether those targets read a static stride of 2 to 4 as structures (read ahead, checked below:
  // the span is read ahead only where it exists). 8/16-bit lanes always; NEON 32-bit lanes at
  // strides 2 and 4, also as 64-bit halves of a fractional vector; SVE 32/64-bit at a stride of 2,
  // whole registers only (narrower values of a mixed-width plan sit unpacked in wide containers).
  struct Kernel {
    std::string inputs, outputs;
    bool neon, sve;
  };
  const std::vector<Kernel> kernels = {
      {R"J([{"name": "a", "dtype": "i8", "stride": "s"}, {"name": "b", "dtype": "i8", "stride": 3}])J",
       R"J([{"name": "o", "dtype": "i8", "expr": "a * 3 - b"}])J", true, true},
      {R"J([{"name": "a", "dtype": "u16", "stride": "s"}, {"name": "b", "dtype": "u16", "stride": 0}])J",
       R"J([{"name": "o", "dtype": "u16", "expr": "a + b"}])J", false, false},
      {R"J([{"name": "a", "dtype": "f32", "stride": "s"}, {"name": "b", "dtype": "f32", "stride": "t"}])J",
       R"J([{"name": "o", "dtype": "f32", "expr": "a * 2 - b"}, {"name": "p", "dtype": "f32", "expr": "b"}])J", false, false},
      {R"J([{"name": "a", "dtype": "f64", "stride": 2}, {"name": "b", "dtype": "f64", "stride": "t"}])J",
       R"J([{"name": "o", "dtype": "f64", "expr": "a - b"}])J", false, true},
      {R"J([{"name": "a", "dtype": "u8", "stride": "s"}, {"name": "b", "dtype": "f32", "stride": "t"}])J",
       R"J([{"name": "o", "dtype": "f64", "expr": "convert(a, f64) * convert(b, f64)"}, {"name": "p", "dtype": "u8", "expr": "a + 1"},
            {"name": "q", "dtype": "f32", "expr": "b * 2"}])J", false, false},
      {R"J([{"name": "a", "dtype": "f32", "stride": 4}, {"name": "b", "dtype": "f32", "stride": "s"}])J",
       R"J([{"name": "o", "dtype": "f32", "expr": "a + b"}])J", true, false},
      {R"J([{"name": "a", "dtype": "f32", "stride": 3}, {"name": "b", "dtype": "u16", "stride": 2}])J",
       R"J([{"name": "o", "dtype": "f32", "expr": "a + convert(b, f32)"}])J", true, false},
      {R"J([{"name": "a", "dtype": "u8", "stride": 4}, {"name": "b", "dtype": "f32", "stride": "t"}])J",
       R"J([{"name": "o", "dtype": "f32", "expr": "convert(a, f32) * b"}])J", true, false},
      {R"J([{"name": "a", "dtype": "u16", "stride": 3}, {"name": "b", "dtype": "i16", "stride": 2}])J",
       R"J([{"name": "o", "dtype": "u16", "expr": "a ^ convert(b, u16)"}])J", true, true},
  };
  for (const Kernel& kernel : kernels)
    for (const char* tail : {"predicated", "scalar"}) {
      const std::string& inputs = kernel.inputs;
      const KernelSpec spec = parseSpecText(mapSpec(kernel.outputs, std::string(",\n  \"tail\": \"") + tail + "\"", inputs), "t.json");
      // 0: the NEON target's plan; -1: SVE's (scalable, run at several lengths).
      for (int bits : {128, 256, 512, 1024, 2048, 0, -1})
        for (int64_t n : {0, 1, 5, 16, 17, 21, 22, 64, 65, 257})
          // (s, t): every combination of 1 (the contiguous versions) and not 1, and 0 (one element).
          for (const auto& [s, t] : std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 1}, {1, 2}, {2, 3}, {7, 0}}) {
            const std::map<std::string, int64_t> strideOf{{"s", s}, {"t", t}};
            CAPTURE(inputs);
            CAPTURE(bits);
            CAPTURE(n);
            CAPTURE(s);
            CAPTURE(t);
            CAPTURE(tail);
            const ir::Plan plan = buildPlan(spec, bits > 0 ? makeGenericTarget(bits) : makeTarget({bits ? "sve" : "neon", {}}));
            CHECK((plan.print().find(" read_ahead ") != std::string::npos) == (bits == 0 ? kernel.neon : bits < 0 && kernel.sve));
            if (n == 0 && s == 0 && bits > 0) CHECK(plan.print().find("gather_rows in0[") != std::string::npos);  // vectors gather
            if (n == 0 && s == 0 && bits > 0 && inputs.find("\"s\"") != std::string::npos)  // versioned: a copy with whole-vector loads
              CHECK(plan.print().find("if stride1 == 1") != std::string::npos);
            std::map<std::string, int64_t> bindings{{"n", n}};
            for (const ir::Param& p : plan.params)
              if (strideOf.count(p.publicName)) bindings[p.name] = strideOf.at(p.publicName);
            std::vector<int64_t> stride;
            for (size_t k = 0; k < spec.mapInputs.size(); ++k) {
              const Extent& e = *spec.mapInputLayouts[k].stride;
              stride.push_back(e.isStatic() ? *e.value : strideOf.at(e.name));
            }
            for (int vscale : bits < 0 ? std::vector<int>{1, 2, 4, 16} : std::vector<int>{1}) {
              CAPTURE(vscale);
              std::mt19937_64 rng(uint64_t(bits * 7919 + n * 31 + s * 5 + t + vscale));
              std::vector<std::vector<unsigned char>> mem;
              std::vector<sim::Buffer> buffers;
              for (size_t k = 0; k < plan.tensors.size(); ++k) {
                const ir::Tensor& t = plan.tensors[k];
                const int64_t span = t.output || n == 0 ? n : (n - 1) * stride[k] + 1;
                mem.emplace_back(size_t(span * int64_t(bitsOf(t.dtype)) / 8 + 1));
                for (auto& b : mem.back()) b = t.output ? 0xA5 : static_cast<unsigned char>(rng() >> 40);
                buffers.push_back({t.name, t.output ? nullptr : mem[k].data(), t.output ? mem[k].data() : nullptr, size_t(span)});
              }
              sim::runPlan(plan, bindings, buffers, vscale);  // bounds-checked: nothing outside the spans is read
              checkOutputs(spec, mem, n, stride, {});
            }
          }
    }
}

TEST_CASE("map code: an input no output reads is cast to void, and integer self-comparisons are constants in scalar code") {
  // -Wextra -Werror builds of the generated code: an unread parameter and `a < a` on integers
  // (-Wtautological-compare) are both warnings; random expressions found them.
  const std::string text = mapSpec(R"J([{"name": "o", "dtype": "i32", "expr": "select(a < a, min(a, a), max(b, b)) + select(a >= a, 1, 2)"}])J", "",
                                   R"J([{"name": "a", "dtype": "i32"}, {"name": "b", "dtype": "i32"}, {"name": "unread", "dtype": "f32"}])J");
  const KernelSpec spec = parseSpecText(text, "t.json");
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) {
    CAPTURE(isa);
    const Target target = makeTarget({isa, {}});
    const std::string code = emit::emitFunction(buildPlan(spec, target), target, "k").function;
    CHECK(code.find("(void)in2;") != std::string::npos);
    CHECK(code.find("(void)in0;") == std::string::npos);
    if (std::string(isa) == "scalar") {
      CHECK(code.find("a_v < a_v") == std::string::npos);
      CHECK(code.find("= false;") != std::string::npos);
      CHECK(code.find("= true;") != std::string::npos);
    }
  }
  for (int bits : {128, 512})
    for (int64_t n : {0, 5, 33}) checkMapPlan(text, bits, n, uint64_t(bits + n));
}

namespace {
size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("map code: a tail predicate written at two uses is declared once, and an AVX2 zero-filled masked load is the maskload alone") {
  // The tail's masked load and masked store share one whilelt: its mask is computed once, in a
  // variable the two read (the k-mask's bzhi, AVX2's compare against the lane numbers). vmaskmov
  // zeroes the lanes it does not load, so a zero fill needs no blend.
  const std::string text = mapSpec(R"J([{"name": "o", "dtype": "f32", "expr": "x * 2 + y"}])J", ",\n  \"tail\": \"predicated\"");
  const KernelSpec spec = parseSpecText(text, "t.json");
  for (const char* isa : {"avx512", "avx2"}) {
    CAPTURE(isa);
    const Target target = makeTarget({isa, {}});
    const std::string code = emit::emitFunction(buildPlan(spec, target), target, "k").function;
    CAPTURE(code);
    const bool k = std::string(isa) == "avx512";
    CHECK(occurrences(code, k ? "_bzhi_u32(" : "_mm256_cmpgt_epi32(") == 1);
    CHECK(occurrences(code, k ? "const __mmask16 " : "const __m256i ") == 1);
    CHECK(occurrences(code, k ? "_mm512_mask_loadu_ps(" : "_mm256_maskload_ps(") == 2);
    CHECK(code.find("blendv") == std::string::npos);
  }
  for (int bits : {256, 512})
    for (int64_t n : {0, 5, 33}) checkMapPlan(text, bits, n, uint64_t(bits + n));
}

TEST_CASE("map spec: reductions name earlier outputs only, internal outputs are used, in_place never meets a later pass") {
  const std::string x = R"J([{"name": "x", "dtype": "f32"}])J";
  checkError(mapSpec(R"J([{"name": "y", "dtype": "f32", "expr": "x - mx"}, {"name": "mx", "dtype": "f32", "reduce": "max", "expr": "x"}])J", "", x),
             "/outputs/0/expr", 0, "an expression may name only the outputs listed before it: move this output after \"mx\"");
  checkError(mapSpec(R"J([{"name": "mx", "dtype": "f32", "reduce": "max", "expr": "x", "internal": true}, {"name": "y", "dtype": "f32", "expr": "x"}])J", "", x),
             "/outputs/0/internal", 0, "is not named by any later output's expression");
  checkError(mapSpec(R"J([{"name": "mx", "dtype": "f32", "reduce": "max", "expr": "x", "internal": true}])J", "", x), "/outputs", 0,
             "at least one must be written");
  checkError(mapSpec(R"J([{"name": "s", "dtype": "f32", "reduce": "add", "expr": "x", "in_place": "x"}])J", "", x), "/outputs/0/in_place", 0,
             "cannot share memory");
  checkError(mapSpec(R"J([{"name": "y", "dtype": "f32", "expr": "x * 2", "in_place": "x"}, {"name": "s", "dtype": "f32", "reduce": "add", "expr": "x"},
                          {"name": "z", "dtype": "f32", "expr": "x / s"}])J", "", x),
             "/outputs/0/in_place", 0, "reads it again in pass 2");
  checkError(mapSpec(R"J([{"name": "s", "dtype": "i32", "reduce": "mean", "expr": "convert(x, i32)"}])J", "", x), "/outputs/0/reduce", 0,
             "needs a float output");
  checkError(mapSpec(R"J([{"name": "s", "dtype": "f32", "reduce": "mul", "expr": "x"}])J", "", x), "/outputs/0/reduce", 0, "not offered");
  checkError(mapSpec(R"J([{"name": "s", "dtype": "f32", "reduce": "xor", "expr": "x"}])J", "", x), "/outputs/0/reduce", 0, "needs an integer output");
  checkError(mapSpec(R"J([{"name": "s", "dtype": "f32", "reduce": "sum", "expr": "x"}])J", "", x), "/outputs/0/reduce", 0, "mean");
  // The last pass may write over the input it reads; an element-wise output named later is its expression.
  const KernelSpec ok = parseSpecText(mapSpec(R"J([{"name": "mx", "dtype": "f32", "reduce": "max", "expr": "x", "internal": true},
      {"name": "e", "dtype": "f32", "expr": "exp(x - mx)", "internal": true}, {"name": "s", "dtype": "f32", "reduce": "add", "expr": "e"},
      {"name": "y", "dtype": "f32", "expr": "e / s", "in_place": "x"}])J", "", x), "t.json");
  CHECK(ok.mapOutputs[0].stage == 0);
  CHECK(ok.mapOutputs[1].stage == 1);
  CHECK(ok.mapOutputs[2].stage == 1);
  CHECK(ok.mapOutputs[3].stage == 2);
  CHECK(ok.mapOutputs[3].expr.op == MapOp::div);
  CHECK(ok.mapOutputs[3].expr.args[0].op == MapOp::math);  // e stands for exp(x - mx)
}

TEST_CASE("map plan: a pass computes the row-uniform parts once per row, and sums of products are fused where the target has fma") {
  const std::string inputs = R"J([{"name": "x", "dtype": "f32"}, {"name": "g", "dtype": "f32"}])J";
  const KernelSpec spec = parseSpecText(mapSpec(R"J([{"name": "ms", "dtype": "f32", "reduce": "mean", "expr": "x * x", "internal": true},
      {"name": "y", "dtype": "f32", "expr": "x * rsqrt(ms + 0.000001) * g"}])J", "", inputs), "t.json");
  for (const TargetRequest& t : {TargetRequest{"avx512", {}}, TargetRequest{"avx2", {"fma"}}, TargetRequest{"neon", {}}, TargetRequest{"sve", {}},
                                 TargetRequest{"scalar", {}}}) {
    const std::string plan = buildPlan(spec, makeTarget(t)).print();
    INFO(t.spelling() << "\n" << plan);
    const size_t pass2 = plan.find("pass 2 over the");
    REQUIRE(pass2 != std::string::npos);
    // rsqrt (computed in f64 at 1 ULP: a square root) runs before the second pass's loop, once.
    const size_t sqrtAt = plan.find(" sqrt ", pass2), loop = plan.find("for c", pass2);
    CHECK(sqrtAt < loop);
    CHECK(plan.find(" sqrt ", loop) == std::string::npos);
    if (t.isa != "scalar") CHECK(plan.find(" = fma acc0_0, x_v") != std::string::npos);
    else CHECK(plan.find("fma") == std::string::npos);
  }
}
