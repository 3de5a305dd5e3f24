// SPDX-License-Identifier: Apache-2.0
// Float numbers in specs (map expressions, arg_reduce's initial value, contraction epilogues):
// any decimal that rounds to a finite f32 / f64 is accepted, rounded exactly as strtof / strtod
// round it (the spellings C front ends print for FLT_MAX, FLT_MIN, DBL_MAX, the smallest
// subnormals); one that rounds to infinity is an error at its JSON pointer and character; the
// generated code spells the value's shortest decimal, and the interpreter reads it as the compiler.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <string>

#include "contraction_check.h"
#include "map_check.h"
#include "spec/float_literal.h"
#include "spec/map_expr.h"
#include "spec/spec.h"
#include "spec_errors.h"

using namespace simdgen;

namespace {

std::string mapSpec(const std::string& expr, DType out = DType::f32) {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"m\",\n  \"kind\": \"map\",\n  \"shape\": [\"n\"],\n"
         "  \"inputs\": [{\"name\": \"x\", \"dtype\": \"f32\"}, {\"name\": \"d\", \"dtype\": \"f64\"}],\n"
         "  \"outputs\": [{\"name\": \"o\", \"dtype\": \"" +
         std::string(nameOf(out)) + "\", \"expr\": \"" + expr + "\"}]\n}\n";
}

// The C literal the number `lit` becomes as the second operand of x * lit (f32) or d * lit (f64).
std::string literalOf(const std::string& lit, DType t) {
  const KernelSpec k = parseSpecText(mapSpec((t == DType::f32 ? "x * " : "d * ") + lit, t), "t.json");
  const MapExpr& e = k.mapOutputs.at(0).expr;
  REQUIRE(e.op == MapOp::mul);
  REQUIRE(e.args.at(1).op == MapOp::literal);
  return e.args[1].text;
}

// The error of `expr`: at /outputs/0/expr, on line 7, at character `offset` of the expression.
void checkExprError(const std::string& expr, DType out, std::size_t offset, const std::string& part) {
  const SpecError e = simdgen::testing::errorOf(mapSpec(expr, out));
  CHECK(e.pointer == "/outputs/0/expr");
  CHECK(e.line == 7);
  const int col0 = int(std::string(R"J(  "outputs": [{"name": "o", "dtype": "f32", "expr": ")J").size()) + 1;
  CHECK(e.column == col0 + int(offset));
  CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
}

}  // namespace

TEST_CASE("float literals: decimals round as strtof / strtod, and are written as the shortest decimal of the value") {
  // f32: FLT_MAX as clang prints it (9 digits, above FLT_MAX's exact value, below the midpoint to 2^128).
  CHECK(*roundDecimal("3.40282347E+38", DType::f32) == double(FLT_MAX));
  CHECK(*roundDecimal("3.4028234663852886e+38", DType::f32) == double(FLT_MAX));
  CHECK(*roundDecimal("-3.40282347e+38", DType::f32) == -double(FLT_MAX));
  CHECK(*roundDecimal("3.4028235677973366e+38", DType::f32) == double(FLT_MAX));  // just below the midpoint
  CHECK(!roundDecimal("340282356779733661637539395458142568448", DType::f32));   // the midpoint: ties to even, 2^128
  CHECK(!roundDecimal("3.5e38", DType::f32));
  CHECK(!roundDecimal("-3.5e38", DType::f32));
  CHECK(*roundDecimal("1.17549435E-38", DType::f32) == double(FLT_MIN));
  CHECK(*roundDecimal("1.40129846E-45", DType::f32) == double(FLT_TRUE_MIN));
  CHECK(*roundDecimal("7.1e-46", DType::f32) == double(FLT_TRUE_MIN));  // above half the smallest subnormal
  CHECK(*roundDecimal("7e-46", DType::f32) == 0.0);                     // below it: zero (C accepts it)
  CHECK(std::signbit(*roundDecimal("-1e-50", DType::f32)));
  CHECK(*roundDecimal("16777217", DType::f32) == 16777216.0);  // ties to even, not through a double
  CHECK(*roundDecimal("0.1", DType::f32) == double(0.1f));
  // f64
  CHECK(*roundDecimal("1.7976931348623157E+308", DType::f64) == DBL_MAX);
  CHECK(*roundDecimal("1.7976931348623158e+308", DType::f64) == DBL_MAX);  // below the midpoint to 2^1024
  CHECK(!roundDecimal("1.7976931348623159e+308", DType::f64));
  CHECK(*roundDecimal("2.2250738585072014E-308", DType::f64) == DBL_MIN);
  CHECK(*roundDecimal("4.9406564584124654E-324", DType::f64) == DBL_TRUE_MIN);
  CHECK(*roundDecimal("1e-400", DType::f64) == 0.0);
  CHECK_THROWS_AS(roundDecimal("inf", DType::f32), std::logic_error);
  CHECK_THROWS_AS(roundDecimal("0x1p3", DType::f64), std::logic_error);

  CHECK(cFloatLiteral(FLT_MAX, DType::f32) == "3.4028235e38f");
  CHECK(cFloatLiteral(-double(FLT_MAX), DType::f32) == "-3.4028235e38f");
  CHECK(cFloatLiteral(FLT_MIN, DType::f32) == "1.1754944e-38f");
  CHECK(cFloatLiteral(FLT_TRUE_MIN, DType::f32) == "1e-45f");
  CHECK(cFloatLiteral(0.0, DType::f32) == "0.0f");
  CHECK(cFloatLiteral(-0.0, DType::f32) == "-0.0f");
  CHECK(cFloatLiteral(2.0, DType::f32) == "2.0f");
  CHECK(cFloatLiteral(0.5, DType::f64) == "0.5");
  CHECK(cFloatLiteral(1e15, DType::f64) == "1e15");
  CHECK(cFloatLiteral(DBL_MAX, DType::f64) == "1.7976931348623157e308");
  CHECK(cFloatLiteral(DBL_MIN, DType::f64) == "2.2250738585072014e-308");
  CHECK(cFloatLiteral(DBL_TRUE_MIN, DType::f64) == "5e-324");
  CHECK(cFloatLiteral(1e-5, DType::f64) == "1e-5");
  CHECK(largestFiniteText(DType::f32) == "3.40282347e+38");
  CHECK(largestFiniteText(DType::f64) == "1.7976931348623157e+308");
}

TEST_CASE("map spec: every spelling of a finite f32 / f64 is accepted, rounded as C rounds it") {
  // f32: what clang prints for FLT_MAX, its exact value to 17 digits, with C's f suffix, FLT_MIN, the smallest subnormal.
  CHECK(literalOf("3.40282347E+38", DType::f32) == "3.4028235e38f");
  CHECK(literalOf("3.4028234663852886e+38", DType::f32) == "3.4028235e38f");
  CHECK(literalOf("-3.40282347e+38f", DType::f32) == "-3.4028235e38f");
  CHECK(literalOf("-3.40282347E+38", DType::f32) == "-3.4028235e38f");
  CHECK(literalOf("3.4028235677973366e38", DType::f32) == "3.4028235e38f");
  CHECK(literalOf("1.17549435E-38", DType::f32) == "1.1754944e-38f");
  CHECK(literalOf("1.40129846E-45", DType::f32) == "1e-45f");
  CHECK(literalOf("-1.40129846E-45", DType::f32) == "-1e-45f");
  CHECK(literalOf("7e-46", DType::f32) == "0.0f");  // underflows to zero: written 0.0f (a compiler warns at 7e-46f)
  CHECK(literalOf("-1e-50", DType::f32) == "-0.0f");
  CHECK(literalOf("1.5f", DType::f32) == "1.5f");
  CHECK(literalOf("2.F", DType::f32) == "2.0f");
  CHECK(literalOf(".25", DType::f32) == "0.25f");
  CHECK(literalOf("16777217", DType::f32) == "16777216.0f");
  CHECK(literalOf("0.1", DType::f32) == "0.1f");
  // f64: DBL_MAX, DBL_MIN, the smallest subnormal.
  CHECK(literalOf("1.7976931348623157E+308", DType::f64) == "1.7976931348623157e308");
  CHECK(literalOf("-1.7976931348623157E+308", DType::f64) == "-1.7976931348623157e308");
  CHECK(literalOf("2.2250738585072014E-308", DType::f64) == "2.2250738585072014e-308");
  CHECK(literalOf("4.9406564584124654E-324", DType::f64) == "5e-324");
  CHECK(literalOf("-4.9406564584124654E-324", DType::f64) == "-5e-324");
  CHECK(literalOf("1e-400", DType::f64) == "0.0");
  CHECK(literalOf("3.40282347E+38", DType::f64) == "3.40282347e38");
  CHECK(literalOf("1e15", DType::f64) == "1e15");
  CHECK(literalOf("3", DType::f64) == "3.0");
  // Integers are unchanged.
  const KernelSpec k = parseSpecText(mapSpec("convert(x, i64) + -9223372036854775808", DType::i64), "t.json");
  CHECK(k.mapOutputs[0].expr.args.at(1).text == "(-9223372036854775807ll - 1)");
}

TEST_CASE("map spec: a number that rounds to infinity is an error at its character, with the largest finite value") {
  // The expression starts at offset 0: "x * " is 4 characters.
  checkExprError("x * 3.5e38", DType::f32, 4,
                 "number 3.5e38 is out of range for f32: it rounds to infinity (the largest finite f32 is 3.40282347e+38; "
                 "the expression language has no infinity)");
  checkExprError("x * -3.5e38f", DType::f32, 5, "number -3.5e38f is out of range for f32: it rounds to -infinity (the largest finite f32 is 3.40282347e+38");
  checkExprError("max(x, 340282356779733661637539395458142568448)", DType::f32, 7, "is out of range for f32: it rounds to infinity");
  checkExprError("d * 1.7976931348623159e308", DType::f64, 4,
                 "number 1.7976931348623159e308 is out of range for f64: it rounds to infinity (the largest finite f64 is 1.7976931348623157e+308");
  checkExprError("d * -1e309", DType::f64, 5, "number -1e309 is out of range for f64: it rounds to -infinity");
  // f: a float constant's suffix, after a '.' or an exponent, for f32 operands only.
  checkExprError("d * 1.5f", DType::f64, 4, "number 1.5f has C's suffix f (a float constant), but the operand's dtype is f64");
  checkExprError("x * .", DType::f32, 4, "a number needs digits before or after its '.'");
  checkExprError("x * .e5", DType::f32, 4, "a number needs digits before or after its '.'");
  checkExprError("x * 1f", DType::f32, 5, "unexpected character 'f' in a number (the suffix f follows a '.' or an exponent");
  checkExprError("convert(x, i32) + 1.5f", DType::i32, 18, "number 1.5f is not an integer");
  // No hexadecimal floats, infinities or NaN: the hints say what to write.
  checkExprError("x * 0x1.fffffep+127", DType::f32, 7, "unexpected character '.' in a hexadecimal number");
  checkExprError("min(x, inf)", DType::f32, 7, "unknown name 'inf' (the expression language has no infinity or NaN constants)");
  checkExprError("min(x, FLT_MAX)", DType::f32, 7, "unknown name 'FLT_MAX' (write the number: 3.40282347e+38)");
}

TEST_CASE("arg_reduce initial and contraction epilogue numbers round as strtof / strtod too") {
  auto argSpec = [](const std::string& dtype, const std::string& value) {
    return R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmax",
    "input": {"dtype": ")" + dtype + R"(", "shape": ["n"]}, "initial": {"value": )" + value + R"(, "index": 0}})";
  };
  KernelSpec k = parseSpecText(argSpec("f32", "3.40282347E+38"), "t.json");
  CHECK(*k.initialValue == "3.4028235e38f");
  CHECK(*k.initialText == "3.40282347E+38");  // the spec's own spelling (the exec tests' reference reads it)
  CHECK(*parseSpecText(argSpec("f32", "-3.4028234663852886e+38"), "t.json").initialValue == "-3.4028235e38f");
  CHECK(*parseSpecText(argSpec("f32", "1.40129846E-45"), "t.json").initialValue == "1e-45f");
  CHECK(*parseSpecText(argSpec("f32", "0.1"), "t.json").initialValue == "0.1f");
  CHECK(*parseSpecText(argSpec("f32", "-1e-50"), "t.json").initialValue == "-0.0f");
  CHECK(*parseSpecText(argSpec("f64", "-1.7976931348623157E+308"), "t.json").initialValue == "-1.7976931348623157e308");
  CHECK(*parseSpecText(argSpec("f64", "4.9406564584124654E-324"), "t.json").initialValue == "5e-324");
  CHECK(*parseSpecText(argSpec("f64", "2"), "t.json").initialValue == "2.0");
  SpecError e = simdgen::testing::errorOf(argSpec("f32", "-3.5e38"));
  CHECK(e.pointer == "/initial/value");
  CHECK(e.line == 2);
  CHECK_MESSAGE(std::string(e.what()).find("number -3.5e38 is out of range for f32: it rounds to -infinity (the largest finite f32 is "
                                           "3.40282347e+38)") != std::string::npos,
                e.what());

  const std::string body = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "strides": ["lda", 1]}, {"name": "b", "index": ["k", "j"], "strides": ["ldb", 1]}],
  "output": {"name": "c", "index": ["i", "j"], "strides": ["ldc", 1]},
  "epilogue": [{"op": "clamp", "min": MIN, "max": 3.40282347E+38}, {"op": "scale", "by": SCALE}])J";
  auto contraction = [&](const std::string& dtype, const std::string& lo, const std::string& scale) {
    std::string b = body;
    b.replace(b.find("MIN"), 3, lo);
    b.replace(b.find("SCALE"), 5, scale);
    return simdgen::testing::contractionSpec(b, "k", dtype);
  };
  const KernelSpec c = parseSpecText(contraction("f32", "-3.40282347E+38", "0.1"), "t.json");
  CHECK(c.contraction.epilogue.at(0).lo == "-3.4028235e38f");
  CHECK(c.contraction.epilogue.at(0).hi == "3.4028235e38f");
  CHECK(c.contraction.epilogue.at(1).factor == "0.1f");  // was 0.10000000000000001f: the double's digits
  CHECK(parseSpecText(contraction("f64", "-4.9406564584124654E-324", "1e-400"), "t.json").contraction.epilogue.at(1).factor == "0.0");
  e = simdgen::testing::errorOf(contraction("f32", "-3.5e38", "1"));
  CHECK(e.pointer == "/epilogue/0/min");
  CHECK_MESSAGE(std::string(e.what()).find("number -3.5e38 is out of range for f32: it rounds to -infinity") != std::string::npos, e.what());
}

TEST_CASE("map plans with numbers at the limits: the interpreter reads the literals as the compiler, and agrees with the reference") {
  const std::string text = R"J({
  "simdgen": 1, "name": "m", "kind": "map", "shape": ["n"],
  "inputs": [{"name": "x", "dtype": "f32"}, {"name": "d", "dtype": "f64"}],
  "outputs": [
    {"name": "a", "dtype": "f32", "expr": "min(max(x, -3.40282347E+38), 3.40282347E+38)"},
    {"name": "b", "dtype": "f32", "expr": "select(abs(x) < 1.17549435E-38, select(x < 0, -1.40129846E-45, 1.40129846e-45f), x * 7e-46 + 0.1)"},
    {"name": "c", "dtype": "f64", "expr": "clamp(d, -1.7976931348623157E+308, 1.7976931348623157E+308)"},
    {"name": "e", "dtype": "f64", "expr": "select(abs(d) < 2.2250738585072014E-308, d + 4.9406564584124654E-324, d * 1e-400)"}
  ]
})J";
  for (int bits : {128, 256, 512})
    for (int64_t n : {0, 1, 7, 33, 100}) simdgen::testing::checkMapPlan(text, bits, n, uint64_t(bits * 100 + n));
}
