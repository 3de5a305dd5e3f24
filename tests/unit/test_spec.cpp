// SPDX-License-Identifier: Apache-2.0
// The spec layer: JSON positions, defaults, normalisation and every error path.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plan/family.h"
#include "plan/reduce_builder.h"
#include "spec/json_locate.h"
#include "spec/spec.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

// A minimal valid spec, one top-level member per line (member i is on line i + 2).
// `changes` replace base members by key (an empty value removes one) or are appended.
std::string makeSpec(const Fields& changes = {}) {
  Fields fields = {{"simdgen", "1"},
                   {"name", R"("k")"},
                   {"kind", R"("reduce")"},
                   {"op", R"("add")"},
                   {"input", R"({"dtype": "i8", "shape": [4, 64]})"}};
  for (const auto& [key, value] : changes) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == key; });
    if (it == fields.end()) {
      if (!value.empty()) fields.emplace_back(key, value);
    } else if (value.empty()) {
      fields.erase(it);
    } else {
      it->second = value;
    }
  }
  std::string text = "{\n";
  for (std::size_t i = 0; i < fields.size(); ++i)
    text += "  \"" + fields[i].first + "\": " + fields[i].second + (i + 1 < fields.size() ? ",\n" : "\n");
  return text + "}\n";
}

KernelSpec parse(const std::string& text) { return parseSpecText(text, "t.json"); }

std::optional<SpecError> errorOf(const std::string& text) {
  try {
    parseSpecText(text, "t.json");
  } catch (const SpecError& e) {
    return e;
  }
  return std::nullopt;
}

// Asserts that `text` fails at `pointer` and that the message contains every part.
SpecError expectError(const std::string& text, const std::string& pointer,
                      std::initializer_list<std::string> parts) {
  auto e = errorOf(text);
  REQUIRE_MESSAGE(e.has_value(), "expected a SpecError for:\n" << text);
  CHECK(e->pointer == pointer);
  CHECK(e->file == "t.json");
  std::string what = e->what();
  for (const std::string& p : parts)
    CHECK_MESSAGE(what.find(p) != std::string::npos, what << "\n  lacks: " << p);
  return *e;
}

}  // namespace

// ---------------------------------------------------------------- json_locate

TEST_CASE("json_locate: positionAt counts lines and UTF-8 code points, skipping a BOM") {
  CHECK(positionAt("ab\ncd", 0).line == 1);
  CHECK(positionAt("ab\ncd", 4).line == 2);
  CHECK(positionAt("ab\ncd", 4).column == 2);
  CHECK(positionAt("\"\xC3\xA9x\"", 3).column == 3);  // the 2-byte é is one column
  CHECK(positionAt("\xEF\xBB\xBF{}", 3).column == 1);
  CHECK(positionAt("ab", 99).column == 3);  // clamps to the end
}

TEST_CASE("json_locate: locatePointer finds values, keys and the deepest existing ancestor") {
  const std::string text =
      "{\n  \"a\": {\"b\": [10, {\"c\": true}]},\n  \"x/y\": 1, \"t~\": 2, \"\\u0071\": 3\n}";
  auto at = [&](const std::string& p) { return positionOf(text, p); };
  CHECK(at("").line == 1);
  CHECK(at("").column == 1);
  CHECK(at("/a").line == 2);
  CHECK(at("/a").column == 8);
  CHECK(at("/a/b/0").column == 15);
  CHECK(at("/a/b/1/c").column == 25);
  CHECK(at("/x~1y").line == 3);
  CHECK(at("/x~1y").column == 10);
  CHECK(at("/t~0").column == 19);
  CHECK(at("/q").column == 32);  // key written as \u0071

  auto missing = locatePointer(text, "/a/zzz");
  REQUIRE(missing);
  CHECK_FALSE(missing->exact);
  CHECK(positionAt(text, missing->offset).column == 8);  // the enclosing object
  CHECK_FALSE(locatePointer(text, "/a/b/7")->exact);
  CHECK_FALSE(locatePointer(text, "/a/b/01")->exact);

  auto member = locatePointer(text, "/a/b");
  REQUIRE(member->keyOffset);
  CHECK(positionAt(text, *member->keyOffset).column == 9);
  CHECK_FALSE(locatePointer("", ""));
}

TEST_CASE("json_locate: the last duplicate wins, and findDuplicateKey reports the repeat") {
  const std::string text = "{\"a\": 1, \"l\": [{\"k\": 1, \"k\": 2}], \"a\": 3}";
  CHECK(positionOf(text, "/a").column == 40);
  auto dup = findDuplicateKey(text);
  REQUIRE(dup);
  CHECK(dup->key == "k");
  CHECK(dup->pointer == "/l/0/k");
  CHECK(positionAt(text, dup->keyOffset).column == 25);
  CHECK_FALSE(findDuplicateKey(R"({"a": {"k": 1}, "b": {"k": 2}})"));
  CHECK(escapePointerToken("a/b~c") == "a~1b~0c");
}

// ---------------------------------------------------------------- valid specs

TEST_CASE("spec: the full example parses into every field") {
  const std::string text = R"({
  "$schema": "../docs/spec.schema.json",
  "simdgen": 1,
  "name": "rowsum_i8",
  "description": "free text, optional",
  "kind": "reduce",
  "op": "add",
  "input":  { "dtype": "i8", "shape": [384, 512], "row_stride": 640 },
  "output": { "dtype": "i16" },
  "axis": 1,
  "targets": ["avx512+vnni", "avx512", "avx2+fma+avx_vnni", "scalar"],
  "strategy": "vector_accumulator",
  "order": "any",
  "schedule": { "accumulators": 4, "unroll": 2, "rows": 3 },
  "tail": "scalar"
})";
  KernelSpec s = parseSpecText(text, "dir/rowsum.json");
  CHECK(s.file == std::filesystem::path("dir/rowsum.json"));
  CHECK(s.text == text);
  CHECK(s.name == "rowsum_i8");
  CHECK(s.description == "free text, optional");
  CHECK(s.kind == KernelKind::reduce);
  CHECK(s.op == ReduceOp::add);
  CHECK(s.input == DType::i8);
  CHECK(s.output == DType::i16);
  CHECK(s.rank == 2);
  CHECK(s.rows.value == 384);
  CHECK(s.cols.value == 512);
  REQUIRE(s.rowStride);
  CHECK(s.rowStride->value == 640);
  CHECK(s.axis == 1);
  REQUIRE(s.targets.size() == 4);
  CHECK(s.targets[0].spelling() == "avx512+vnni");
  CHECK(s.targets[1].features.empty());
  CHECK(s.targets[2].features == std::vector<std::string>{"avx_vnni", "fma"});  // sorted
  CHECK(s.targets[2].spelling() == "avx2+avx_vnni+fma");
  CHECK(s.strategy == Strategy::vector_accumulator);
  CHECK(s.order == FloatOrder::any);
  CHECK(s.schedule.accumulators == 4);
  CHECK(s.schedule.unroll == 2);
  CHECK(s.schedule.rows == 3);
  CHECK(s.tail == TailPolicy::scalar);
}

TEST_CASE("spec: defaults") {
  KernelSpec s = parse(makeSpec());
  CHECK(s.description.empty());
  CHECK(s.output == DType::i32);  // defaultOutput(i8, add)
  CHECK(s.axis == 1);
  CHECK(s.rank == 2);
  CHECK_FALSE(s.rowStride);
  std::vector<std::string> targets;
  for (const auto& t : s.targets) targets.push_back(t.spelling());
  CHECK(targets == std::vector<std::string>{"avx512+vnni", "avx512+gfni", "avx512+vbmi", "avx512", "avx2", "sve2", "sve", "neon+dotprod", "neon", "scalar"});
  CHECK(s.targets[0].isa == "avx512");
  CHECK(s.targets[0].features == std::vector<std::string>{"vnni"});
  CHECK(s.strategy == Strategy::automatic);
  CHECK(s.order == FloatOrder::any);
  CHECK_FALSE(s.schedule.accumulators);
  CHECK_FALSE(s.schedule.unroll);
  CHECK_FALSE(s.schedule.rows);
  CHECK(s.tail == TailPolicy::predicated);

  CHECK(parse(makeSpec({{"op", R"("max")"}, {"input", R"({"dtype": "u16", "shape": [8]})"}})).output ==
        DType::u16);
  CHECK(parse(makeSpec({{"input", R"({"dtype": "u16", "shape": [8]})"}})).output == DType::u32);
  CHECK(parse(makeSpec({{"output", "{}"}})).output == DType::i32);
  CHECK(parse(makeSpec({{"input", R"({"dtype": "f32", "shape": [8]})"}})).output == DType::f32);
}

TEST_CASE("spec: rank 1 normalises to one row reduced along axis 1") {
  for (const char* axis : {"", "0"}) {
    KernelSpec s = parse(makeSpec({{"input", R"({"dtype": "f64", "shape": ["n"]})"}, {"axis", axis}}));
    CHECK(s.rank == 1);
    CHECK(s.rows.value == 1);
    CHECK(s.rows.name.empty());
    CHECK_FALSE(s.cols.isStatic());
    CHECK(s.cols.name == "n");
    CHECK(s.axis == 1);
  }
}

TEST_CASE("spec: runtime extents, column reductions, sequential order") {
  KernelSpec s =
      parse(makeSpec({{"input", R"({"dtype": "i16", "shape": ["rows", "cols"], "row_stride": "ld"})"},
                      {"axis", "0"},
                      {"strategy", R"("auto")"}}));
  CHECK(s.rows.name == "rows");
  CHECK(s.cols.name == "cols");
  CHECK(s.rowStride->name == "ld");
  CHECK(s.axis == 0);
  // A static stride with runtime cols cannot be checked here; a runtime stride with static cols is fine.
  CHECK_NOTHROW(parse(makeSpec({{"input", R"({"dtype": "i8", "shape": [4, "n"], "row_stride": 64})"}})));
  CHECK_NOTHROW(parse(makeSpec({{"input", R"({"dtype": "i8", "shape": [4, 64], "row_stride": "ld"})"}})));
  CHECK(parse(makeSpec({{"input", R"({"dtype": "i8", "shape": [4, 64], "row_stride": 64})"}}))
            .rowStride->value == 64);
  // Integer results do not depend on order, so any strategy is fine with sequential.
  CHECK(parse(makeSpec({{"order", R"("sequential")"}, {"strategy", R"("vector_accumulator")"}})).order ==
        FloatOrder::sequential);
  CHECK_NOTHROW(parse(makeSpec({{"input", R"({"dtype": "f32", "shape": [4, 64]})"},
                                {"order", R"("sequential")"},
                                {"strategy", R"("inner_parallel")"}})));
  CHECK(parse(makeSpec({{"tail", R"("none")"}})).tail == TailPolicy::none);
  CHECK(parse(makeSpec({{"targets", R"(["avx2+fma"])"}})).targets.back().spelling() == "scalar");
}

TEST_CASE("spec: nameOf and spelling") {
  CHECK(nameOf(Strategy::automatic) == "auto");
  CHECK(nameOf(Strategy::inner_parallel) == "inner_parallel");
  CHECK(nameOf(Strategy::inner_reduction) == "inner_reduction");
  CHECK(nameOf(Strategy::vector_accumulator) == "vector_accumulator");
  CHECK(nameOf(TailPolicy::predicated) == "predicated");
  CHECK(nameOf(TailPolicy::scalar) == "scalar");
  CHECK(nameOf(TailPolicy::none) == "none");
  CHECK(nameOf(FloatOrder::any) == "any");
  CHECK(nameOf(FloatOrder::sequential) == "sequential");
  CHECK(TargetRequest{"avx2", {"avx_vnni", "fma"}}.spelling() == "avx2+avx_vnni+fma");
  CHECK(TargetRequest{"scalar", {}}.spelling() == "scalar");
}

// ---------------------------------------------------------------- error format

TEST_CASE("spec errors: format FILE:LINE:COL: error: at POINTER: MESSAGE") {
  SpecError e = expectError(makeSpec({{"axis", "7"}}), "/axis", {});
  CHECK(e.line == 7);  // the sixth member
  CHECK(e.column == 11);
  CHECK(std::string(e.what()) ==
        "t.json:7:11: error: at /axis: a rank-2 input has axes 0 (column reductions) and 1 (row reductions); "
        "allowed: 0, 1; found number 7");

  // A missing key is named by its own pointer and placed at the enclosing object.
  SpecError missing = expectError(makeSpec({{"name", ""}}), "/name", {});
  CHECK(std::string(missing.what()) == "t.json:1:1: error: at /name: missing required key \"name\"");

  SpecError direct("f.json", "/x", 0, 0, "boom");
  CHECK(std::string(direct.what()) == "f.json: error: at /x: boom");
  CHECK(std::string(SpecError("f.json", "", 2, 5, "m").what()) == "f.json:2:5: error: m");
  CHECK(std::string(SpecError("f", "/a", 2, 5, "m").what()) == "f:2:5: error: at /a: m");
}

TEST_CASE("spec errors: JSON syntax reports the byte position as line:col") {
  SpecError e = expectError("{\n  \"simdgen\": 1,\n  \"name\": }\n", "", {"invalid JSON", "unexpected '}'"});
  CHECK(e.line == 3);
  CHECK(e.column == 11);
  CHECK(std::string(e.what()).starts_with("t.json:3:11: error: invalid JSON: syntax error"));
  CHECK(expectError("", "", {"unexpected end of input"}).line == 1);
  // nlohmann/json rejects a number beyond a double without a position; the parser finds it.
  SpecError big = expectError("{\n  \"a\": [1,\n    -1e999]}", "/a/1", {"number -1e999 is too large for a double"});
  CHECK(big.line == 3);
  CHECK(big.column == 5);
  expectError("[1, 2]", "", {"expected an object", "found an array of 2 elements"});
}

TEST_CASE("spec errors: duplicate keys") {
  SpecError e = expectError(makeSpec({{"op", "\"max\",\n  \"op\": \"max\""}}), "/op", {"duplicate key \"op\""});
  CHECK(e.line == 6);
  CHECK(e.column == 3);
  CHECK(e.more.empty());
  // Beside the missing keys of an almost empty spec: every error is reported, in the text's order.
  SpecError all = *errorOf("{\n  \"simdgen\": 1,\n  \"simdgen\": 1\n}");
  std::vector<std::string> found{all.pointer};
  for (const SpecError& m : all.more) found.push_back(m.pointer);
  CHECK(found == std::vector<std::string>{"/name", "/kind", "/simdgen"});
  CHECK(std::string(all.more.back().what()).find("t.json:3:3: error: at /simdgen: duplicate key") == 0);
}

// The pointers of every error a text raises, the first one's then the others'.
static std::vector<std::string> errorPointers(const std::string& text) {
  auto e = errorOf(text);
  REQUIRE_MESSAGE(e.has_value(), "expected a SpecError for:\n" << text);
  std::vector<std::string> out{e->pointer};
  for (const SpecError& m : e->more) out.push_back(m.pointer);
  return out;
}

TEST_CASE("spec errors: every independent error is reported in one run, dependent ones are not") {
  using V = std::vector<std::string>;
  // reduce: a misspelt op, a bad axis, an unknown target, a bad strategy and a schedule out of range.
  CHECK(errorPointers(makeSpec({{"op", "\"sum\""}, {"axis", "3"}, {"targets", R"(["avx2", "nen"])"},
                                {"strategy", "\"fast\""}, {"schedule", R"({"unroll": 99, "acumulators": 2})"}})) ==
        V{"/op", "/axis", "/targets/1", "/strategy", "/schedule/unroll", "/schedule/acumulators"});
  // An unknown input dtype: the output and the axis (checked against the input) are not judged.
  CHECK(errorPointers(makeSpec({{"input", R"({"dtype": "f23", "shape": ["rows", "cols"]})"}, {"axis", "7"}, {"tail", "\"none\""}})) ==
        V{"/input/dtype"});
  // map: an input's dtype, an expression, a target and the tail; the output naming the bad input is not judged.
  const std::string map = R"({
  "simdgen": 1, "name": "m", "kind": "map", "shape": ["n"], "colour": 3,
  "inputs": [{"name": "x", "dtype": "f23"}, {"name": "y", "dtype": "f32"}],
  "outputs": [{"name": "a", "dtype": "f32", "expr": "x + y"}, {"name": "b", "dtype": "f32", "expr": "y * * 2"},
              {"name": "c", "dtype": "f32", "expr": "a + 1"}, {"name": "d", "dtype": "f32", "expr": "y", "in_place": "x"}],
  "targets": ["avx3"], "tail": "none", "max_ulp": 2
})";
  CHECK(errorPointers(map) == V{"/colour", "/inputs/0/dtype", "/outputs/1/expr", "/targets/0", "/tail", "/max_ulp"});
  // transpose: a key of another kind, a bad strategy and an unknown target beside a bad output.
  CHECK(errorPointers(R"({"simdgen": 1, "name": "t", "kind": "transpose", "op": "max", "strategy": "tiled",
    "input": {"dtype": "u16", "shape": ["r", "c"]}, "output": {"stores": "nt"}, "targets": ["sve3"]})") ==
        V{"/op", "/strategy", "/output/stores", "/targets/0"});
  // contraction: an unknown dtype stops the tensors' checks (their dtypes are judged against it).
  CHECK(errorPointers(R"({"simdgen": 1, "name": "c", "kind": "contraction", "dtype": "f16", "targets": ["avx9"],
    "dims": [{"name": "i", "extent": "n"}], "operands": [], "output": {"name": "y", "index": ["q"]}})") == V{"/dtype", "/targets/0"});
  // Two bad operands, each reported; the epilogue (checked against the tensors) is not judged.
  CHECK(errorPointers(R"({"simdgen": 1, "name": "c", "kind": "contraction", "dtype": "f32",
    "dims": [{"name": "i", "extent": "n"}, {"name": "k", "extent": "m", "kind": "reduction"}],
    "operands": [{"name": "a", "index": ["i", "z"]}, {"name": "b", "index": ["k"], "dtype": "i9"}],
    "output": {"name": "y", "index": ["i"]}, "epilogue": [{"op": "relux"}]})") == V{"/operands/0/index/1", "/operands/1/dtype"});
}

TEST_CASE("spec errors: unknown keys name the key, list the allowed ones and suggest a close one") {
  SpecError e = expectError(makeSpec({{"schedule", R"({"acumulators": 4})"}}), "/schedule/acumulators",
                            {"unknown key \"acumulators\"", "did you mean \"accumulators\"?",
                             "allowed keys: accumulators, unroll, rows"});
  CHECK(e.line == 7);
  CHECK(e.column == 16);  // at the key itself
  expectError(makeSpec({{"tial", R"("scalar")"}}), "/tial",
              {"did you mean \"tail\"?", "allowed keys: $schema, simdgen"});
  SpecError far =
      expectError(makeSpec({{"colour", "1"}}), "/colour", {"unknown key \"colour\"", "allowed keys:"});
  CHECK(std::string(far.what()).find("did you mean") == std::string::npos);
  expectError(makeSpec({{"input", R"({"dtype": "i8", "shape": [4], "rowstride": 4})"}}), "/input/rowstride",
              {"did you mean \"row_stride\"?", "allowed keys: dtype, shape, row_stride"});
  expectError(makeSpec({{"output", R"({"type": "i32"})"}}), "/output/type", {"allowed keys: dtype"});
  expectError(makeSpec({{"a/b", "1"}}), "/a~1b", {"unknown key \"a/b\""});
}

// ---------------------------------------------------------------- top-level fields

TEST_CASE("spec errors: simdgen version") {
  expectError(makeSpec({{"simdgen", ""}}), "/simdgen", {"missing required key \"simdgen\""});
  expectError(makeSpec({{"simdgen", "2"}}), "/simdgen",
              {"unsupported spec format version 2", "reads version 1"});
  expectError(makeSpec({{"simdgen", R"("1")"}}), "/simdgen",
              {"expected the integer 1", "found string \"1\""});
  expectError(makeSpec({{"simdgen", "1.0"}}), "/simdgen", {"found number 1.0"});
}

TEST_CASE("spec errors: name") {
  expectError(makeSpec({{"name", "3"}}), "/name", {"expected a string, found number 3"});
  expectError(makeSpec({{"name", R"("9lives")"}}), "/name", {"\"9lives\" is not a C identifier"});
  expectError(makeSpec({{"name", R"("a-b")"}}), "/name", {"not a C identifier"});
  expectError(makeSpec({{"name", R"("")"}}), "/name", {"not a C identifier"});
  expectError(makeSpec({{"name", "\"" + std::string(65, 'a') + "\""}}), "/name",
              {"65 characters", "at most 64"});
  CHECK_NOTHROW(parse(makeSpec({{"name", "\"" + std::string(64, 'a') + "\""}})));
  expectError(makeSpec({{"name", R"("class")"}}), "/name", {"\"class\" is a C++ keyword"});
  expectError(makeSpec({{"name", R"("co_await")"}}), "/name", {"C++ keyword"});
  expectError(makeSpec({{"name", R"("int32_t")"}}), "/name", {"clash"});
  expectError(makeSpec({{"name", R"("__k")"}}), "/name", {"reserved"});
  expectError(makeSpec({{"name", R"("_K")"}}), "/name", {"reserved"});
  CHECK(parse(makeSpec({{"name", R"("_k9")"}})).name == "_k9");
}

TEST_CASE("spec errors: description, $schema, kind, op") {
  expectError(makeSpec({{"description", "null"}}), "/description", {"expected a string, found null"});
  expectError(makeSpec({{"$schema", "true"}}), "/$schema", {"expected a string, found boolean true"});
  expectError(makeSpec({{"kind", ""}}), "/kind", {"missing required key \"kind\""});
  expectError(makeSpec({{"kind", R"("transposed")"}}), "/kind", {"unknown kind \"transposed\"", "allowed: reduce, arg_reduce, map, transpose"});
  expectError(makeSpec({{"op", ""}}), "/op", {"missing required key \"op\""});
  expectError(makeSpec({{"op", R"("sum")"}}), "/op",
              {"unknown op \"sum\"", "allowed: add, mul, min, max, and, or, xor"});
  expectError(makeSpec({{"op", R"("mxa")"}}), "/op", {"did you mean \"max\"?"});
  expectError(makeSpec({{"op", R"("Add")"}}), "/op", {"did you mean \"add\"?"});
  expectError(makeSpec({{"op", R"("xor")"}, {"input", R"({"dtype": "f32", "shape": [8]})"}}), "/op",
              {"needs an integer input", "allowed ops for f32: add, mul, min, max"});
  CHECK(parse(makeSpec({{"op", R"("xor")"}})).op == ReduceOp::bit_xor);
}

// ---------------------------------------------------------------- input

TEST_CASE("spec errors: input object and dtype") {
  expectError(makeSpec({{"input", ""}}), "/input", {"missing required key \"input\""});
  expectError(makeSpec({{"input", "[4]"}}), "/input", {"expected an object, found an array of 1 element"});
  SpecError e =
      expectError(makeSpec({{"input", R"({"shape": [4]})"}}), "/input/dtype", {"missing required key \"dtype\""});
  CHECK(e.line == 6);
  CHECK(e.column == 12);  // the enclosing object
  expectError(makeSpec({{"input", R"({"dtype": "int8", "shape": [4]})"}}), "/input/dtype",
              {"unknown dtype \"int8\"", "allowed: i8, u8, i16, u16, i32, u32, i64, u64, f32, f64"});
  expectError(makeSpec({{"input", R"({"dtype": 8, "shape": [4]})"}}), "/input/dtype",
              {"expected a string, found number 8"});
}

TEST_CASE("spec errors: input shape") {
  auto withShape = [](const std::string& shape) {
    return makeSpec({{"input", R"({"dtype": "i8", "shape": )" + shape + "}"}});
  };
  expectError(makeSpec({{"input", R"({"dtype": "i8"})"}}), "/input/shape", {"missing required key \"shape\""});
  expectError(withShape("[]"), "/input/shape",
              {"expected an array of 1 or 2 extents", "found an array of 0 elements"});
  expectError(withShape("[2, 3, 4]"), "/input/shape", {"found an array of 3 elements"});
  expectError(withShape("4"), "/input/shape", {"found number 4"});
  expectError(withShape("[0, 4]"), "/input/shape/0", {"from 1 to 2^40", "found number 0"});
  expectError(withShape("[4, -1]"), "/input/shape/1", {"found number -1"});
  expectError(withShape("[4, 1099511627777]"), "/input/shape/1", {"found number 1099511627777"});
  CHECK(parse(withShape("[1, 1099511627776]")).cols.value == int64_t{1} << 40);
  expectError(withShape("[4, 2.5]"), "/input/shape/1",
              {"expected a positive integer (a static extent) or a C identifier string", "found number 2.5"});
  expectError(withShape("[true]"), "/input/shape/0", {"found boolean true"});
  expectError(withShape(R"(["n m"])"), "/input/shape/0",
              {"runtime extent name \"n m\" is not a C identifier"});
  expectError(withShape(R"(["int"])"), "/input/shape/0", {"C++ keyword"});
  expectError(withShape(R"(["input"])"), "/input/shape/0",
              {"is the name of an array parameter", "avoid: input, output, values, indices"});
  expectError(makeSpec({{"input", R"({"dtype": "i8", "shape": [4, 64], "row_stride": "output"})"}}),
              "/input/row_stride", {"is the name of an array parameter"});
  // Names the generated code uses inside the .cpp are fine: its parameters are renamed there.
  for (const char* name : {"i", "j", "kCols", "acc0", "row_sum", "mask", "rows"})
    CHECK_NOTHROW(parse(withShape("[\"" + std::string(name) + "\", 4]")));
  expectError(withShape(R"(["n", "n"])"), "/input/shape/1",
              {"\"n\" is already used by /input/shape/0", "must differ"});
  expectError(withShape(R"([4, "k"])"), "/input/shape/1", {"clashes with the generated function"});
  expectError(withShape(R"(["k_avx2", 4])"), "/input/shape/0", {"clashes with the generated function"});
  CHECK_NOTHROW(parse(withShape(R"(["k_n", 4])")));
  expectError(withShape("[1099511627776, 1099511627776]"), "/input/shape", {"2^62 bytes"});
}

TEST_CASE("spec errors: input row_stride") {
  auto withInput = [](const std::string& input) { return makeSpec({{"input", input}}); };
  expectError(withInput(R"({"dtype": "i8", "shape": [64], "row_stride": 64})"), "/input/row_stride",
              {"only to a rank-2 input"});
  expectError(withInput(R"({"dtype": "i8", "shape": [4, 64], "row_stride": 32})"), "/input/row_stride",
              {"row_stride 32 is smaller than the row length (cols = 64)"});
  expectError(withInput(R"({"dtype": "i8", "shape": [4, 64], "row_stride": 0})"), "/input/row_stride",
              {"found number 0"});
  expectError(withInput(R"({"dtype": "i8", "shape": [4, 64], "row_stride": [1]})"), "/input/row_stride",
              {"found an array of 1 element"});
  expectError(withInput(R"({"dtype": "i8", "shape": ["r", "c"], "row_stride": "c"})"), "/input/row_stride",
              {"same name as a shape extent"});
  expectError(withInput(R"({"dtype": "i8", "shape": [4, 64], "row_stride": "k"})"), "/input/row_stride",
              {"clashes with the generated function"});
}

// ---------------------------------------------------------------- output, axis

TEST_CASE("spec errors: output") {
  expectError(makeSpec({{"output", R"("i32")"}}), "/output", {"expected an object, found string \"i32\""});
  expectError(makeSpec({{"output", R"({"dtype": "i64"})"}}), "/output/dtype",
              {"output dtype i64 is not allowed for i8 input", "allowed: i8, i16, i32"});
  expectError(makeSpec({{"output", R"({"dtype": "f32"})"}, {"input", R"({"dtype": "u8", "shape": [8]})"}}),
              "/output/dtype", {"allowed: u8, u16, u32"});
  expectError(makeSpec({{"output", R"({"dtype": "i33"})"}}), "/output/dtype", {"unknown dtype \"i33\""});
  CHECK(parse(makeSpec({{"output", R"({"dtype": "i8"})"}})).output == DType::i8);
}

TEST_CASE("spec errors: axis") {
  expectError(makeSpec({{"axis", "2"}}), "/axis", {"allowed: 0, 1", "found number 2"});
  expectError(makeSpec({{"axis", "-1"}}), "/axis", {"allowed: 0, 1", "found number -1"});
  expectError(makeSpec({{"axis", R"("1")"}}), "/axis", {"found string \"1\""});
  expectError(makeSpec({{"axis", "1"}, {"input", R"({"dtype": "i8", "shape": [8]})"}}), "/axis",
              {"a rank-1 input has only axis 0", "allowed: 0", "found number 1"});
}

// ---------------------------------------------------------------- targets

TEST_CASE("spec errors: targets") {
  auto withTargets = [](const std::string& t) { return makeSpec({{"targets", t}}); };
  expectError(withTargets(R"("avx2")"), "/targets",
              {"expected an array of target strings, found string \"avx2\""});
  expectError(withTargets("[]"), "/targets", {"at least one target", "allowed ISAs: scalar, avx2, avx512"});
  expectError(withTargets(R"(["avx2", 2])"), "/targets/1", {"expected a string, found number 2"});
  SpecError e = expectError(withTargets(R"(["avx2", "sse4"])"), "/targets/1",
                            {"unknown ISA \"sse4\"", "allowed ISAs: scalar, avx2, avx512"});
  CHECK(e.line == 7);
  CHECK(e.column == 23);
  expectError(withTargets(R"(["AVX2"])"), "/targets/0", {"did you mean \"avx2\"?"});
  expectError(withTargets(R"(["avx2+avx512"])"), "/targets/0",
              {"unknown avx2 feature \"avx512\"", "allowed features for avx2: avx_vnni, fma"});
  expectError(withTargets(R"(["avx2+fam"])"), "/targets/0", {"did you mean \"fma\"?"});
  expectError(withTargets(R"(["avx512+bw"])"), "/targets/0",
              {"implies F, BW, DQ and VL", "allowed features for avx512: vnni"});
  expectError(withTargets(R"(["avx512+fma"])"), "/targets/0", {"allowed features for avx512: vnni"});
  expectError(withTargets(R"(["scalar+fma"])"), "/targets/0", {"\"scalar\" takes no features"});
  expectError(withTargets(R"(["avx2+"])"), "/targets/0", {"empty feature name"});
  expectError(withTargets(R"(["avx2+fma+fma"])"), "/targets/0", {"feature \"fma\" is listed twice"});
  expectError(withTargets(R"(["avx2", "avx2"])"), "/targets/1",
              {"duplicate target \"avx2\" (same as /targets/0)"});
  expectError(withTargets(R"(["avx2+fma+avx_vnni", "scalar", "avx2+avx_vnni+fma"])"), "/targets/2",
              {"duplicate target \"avx2+avx_vnni+fma\""});
}

TEST_CASE("spec: targets keep their order and get scalar appended when missing") {
  KernelSpec s = parse(makeSpec({{"targets", R"(["avx2", "avx512"])"}}));
  REQUIRE(s.targets.size() == 3);
  CHECK(s.targets[0].spelling() == "avx2");
  CHECK(s.targets[1].spelling() == "avx512");
  CHECK(s.targets[2].spelling() == "scalar");
  CHECK(parse(makeSpec({{"targets", R"(["scalar", "avx2"])"}})).targets.size() == 2);
}

// ---------------------------------------------------------------- strategy, order, schedule, tail

TEST_CASE("spec errors: strategy and order") {
  expectError(
      makeSpec({{"strategy", R"("fast")"}}), "/strategy",
      {"unknown strategy \"fast\"", "allowed: auto, inner_parallel, inner_reduction, vector_accumulator"});
  expectError(makeSpec({{"strategy", R"("inner_paralel")"}}), "/strategy",
              {"did you mean \"inner_parallel\"?"});
  expectError(makeSpec({{"axis", "0"}, {"strategy", R"("inner_parallel")"}}), "/strategy",
              {"column reductions (axis 0)", "one lane per column", "allowed: auto"});
  expectError(makeSpec({{"order", R"("strict")"}}), "/order",
              {"unknown order \"strict\"", "allowed: any, sequential"});
  for (const char* strategy : {R"("inner_reduction")", R"("vector_accumulator")"})
    expectError(makeSpec({{"input", R"({"dtype": "f64", "shape": [4, 64]})"},
                          {"strategy", strategy},
                          {"order", R"("sequential")"}}),
                "/order", {"only inner_parallel keeps the order; use strategy inner_parallel or auto"});
}

TEST_CASE("spec errors: schedule") {
  expectError(makeSpec({{"schedule", "4"}}), "/schedule", {"expected an object, found number 4"});
  expectError(makeSpec({{"schedule", R"({"accumulators": 0})"}}), "/schedule/accumulators",
              {"expected an integer from 1 to 16, found number 0"});
  expectError(makeSpec({{"schedule", R"({"accumulators": 17})"}}), "/schedule/accumulators",
              {"from 1 to 16"});
  expectError(makeSpec({{"schedule", R"({"unroll": 9})"}}), "/schedule/unroll",
              {"from 1 to 8, found number 9"});
  expectError(makeSpec({{"schedule", R"({"rows": 2.0})"}}), "/schedule/rows",
              {"from 1 to 16, found number 2.0"});
  expectError(makeSpec({{"schedule", R"({"rows": 18446744073709551615})"}}), "/schedule/rows",
              {"from 1 to 16"});
  KernelSpec s = parse(makeSpec({{"schedule", R"({"unroll": 8})"}}));
  CHECK(s.schedule.unroll == 8);
  CHECK_FALSE(s.schedule.accumulators);
}

TEST_CASE("spec errors: tail") {
  expectError(makeSpec({{"tail", R"("mask")"}}), "/tail",
              {"unknown tail \"mask\"", "allowed: predicated, scalar, none"});
  for (const char* axis : {"0", "1"})
    expectError(
        makeSpec({{"input", R"({"dtype": "i8", "shape": [4, "n"]})"}, {"axis", axis}, {"tail", R"("none")"}}),
        "/tail", {"runtime extent \"n\"", "allowed here: predicated, scalar"});
  // Runtime rows do not matter: the tail is along cols.
  CHECK_NOTHROW(parse(
      makeSpec({{"input", R"({"dtype": "i8", "shape": ["m", 64]})"}, {"axis", "0"}, {"tail", R"("none")"}})));
}

TEST_CASE("spec errors: planning errors carry FILE:LINE:COL and the pointer of the value to blame") {
  KernelSpec k = parse(makeSpec({{"input", R"({"dtype": "i8", "shape": [4, 65]})"}, {"targets", R"(["avx2"])"},
                                 {"tail", R"("none")"}}));
  auto planError = [](const KernelSpec& spec) -> std::optional<PlanError> {
    try {
      for (const TargetRequest& t : spec.targets) buildPlan(spec, makeTarget(t));
    } catch (const PlanError& e) {
      return e;
    }
    return std::nullopt;
  };
  auto e = planError(k);
  REQUIRE(e);
  CHECK(e->pointer == "/tail");
  SpecError placed = specErrorAt(k, e->pointer, e->what());
  CHECK(placed.line == 8);  // the seventh member
  CHECK(placed.column == 11);
  CHECK(std::string(placed.what()).starts_with("t.json:8:11: error: at /tail: tail \"none\": cols = 65"));

  KernelSpec arg = parse(R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmax", "tail": "none",
    "input": {"dtype": "f32", "shape": [4, 100]}, "targets": ["avx2"]})");
  e = planError(arg);
  REQUIRE(e);
  CHECK(e->pointer == "/tail");
  CHECK(specErrorAt(arg, e->pointer, e->what()).column == 75);
}

TEST_CASE("json_locate: findOverflowingNumber finds the first number beyond a double") {
  auto at = findOverflowingNumber("{\"a\": [1e308, {\"b~\": 2e308}], \"c\": -1e400}");
  REQUIRE(at);
  CHECK(at->pointer == "/a/1/b~0");
  CHECK(at->token == "2e308");
  CHECK(at->offset == 21);
  CHECK_FALSE(findOverflowingNumber("{\"a\": [1.7e308, -1e-400, \"1e999\"]}"));
}

// ---------------------------------------------------------------- loadSpec

TEST_CASE("spec: loadSpec reads files and reports unreadable ones") {
  auto dir = std::filesystem::temp_directory_path() / "simdgen_test_spec";
  std::filesystem::create_directories(dir);
  auto file = dir / "ok.json";
  const std::string text = makeSpec({{"description", R"("\u00e9")"}});
  std::ofstream(file, std::ios::binary) << text;
  KernelSpec s = loadSpec(file);
  CHECK(s.file == file);
  CHECK(s.text == text);
  CHECK(s.description == "\xC3\xA9");

  auto bad = dir / "bad.json";
  std::ofstream(bad, std::ios::binary) << makeSpec({{"axis", "5"}});
  try {
    loadSpec(bad);
    FAIL("expected SpecError");
  } catch (const SpecError& e) {
    CHECK(e.file == bad.string());
    CHECK(std::string(e.what()).starts_with(bad.string() + ":7:11: error: at /axis:"));
  }

  auto missing = dir / "missing.json";
  try {
    loadSpec(missing);
    FAIL("expected SpecError");
  } catch (const SpecError& e) {
    CHECK(std::string(e.what()) == missing.string() + ": error: cannot read file");
    CHECK(e.line == 0);
  }
  CHECK_THROWS_AS(loadSpec(dir), SpecError);
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------- docs stay in sync

#ifdef SIMDGEN_SOURCE_DIR
TEST_CASE("spec: the examples in docs/spec.md parse, and the schema is JSON") {
  auto read = [](const char* rel) {
    std::ifstream in(std::filesystem::path(SIMDGEN_SOURCE_DIR) / rel, std::ios::binary);
    REQUIRE(in);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string doc = read("docs/spec.md");
  int examples = 0;
  for (std::size_t at = doc.find("```json\n"); at != std::string::npos; at = doc.find("```json\n", at)) {
    at += 8;
    std::size_t end = doc.find("```", at);
    REQUIRE(end != std::string::npos);
    CHECK_NOTHROW(parseSpecText(doc.substr(at, end - at), "docs/spec.md"));
    ++examples;
  }
  CHECK(examples >= 2);

  // The schema's top-level properties are exactly the keys the parser allows.
  auto schema = nlohmann::json::parse(read("docs/spec.schema.json"));
  std::string schemaKeys;
  for (const auto& [key, value] : schema.at("properties").items()) schemaKeys += key + ",";
  std::string what = errorOf(makeSpec({{"zzzzzz", "1"}}))->what();
  std::string listed = what.substr(what.find("allowed keys: ") + 14);
  std::vector<std::string> parserKeys;
  for (std::size_t start = 0, comma = 0; comma != std::string::npos; start = comma + 2) {
    comma = listed.find(", ", start);
    parserKeys.push_back(listed.substr(start, comma - start));
  }
  std::sort(parserKeys.begin(), parserKeys.end());
  std::string sortedParserKeys;
  for (const auto& k : parserKeys) sortedParserKeys += k + ",";
  CHECK(schemaKeys == sortedParserKeys);
}
#endif

// ---------------------------------------------------------------- kind arg_reduce

namespace {
std::string argSpec(const std::string& extra) {
  return R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmax",
    "input": {"dtype": "i32", "shape": ["n"]})" + extra + "}";
}
}  // namespace

TEST_CASE("spec arg_reduce: defaults and fields") {
  KernelSpec k = parse(argSpec(""));
  CHECK(k.kind == KernelKind::arg_reduce);
  CHECK(k.op == ReduceOp::max);
  CHECK(!k.lastIndex);
  CHECK(k.indexType == DType::i64);
  CHECK(k.output == DType::i32);
  CHECK(!k.initialValue);
  k = parse(argSpec(R"(, "index": "last", "index_type": "i32", "initial": {"value": -5, "index": 3})"));
  CHECK(k.lastIndex);
  CHECK(k.indexType == DType::i32);
  CHECK(*k.initialValue == "-5ll");
  CHECK(*k.initialIndex == 3);
  KernelSpec m = parse(R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmin", "nan": "propagate",
    "input": {"dtype": "f64", "shape": ["rows", "cols"], "row_stride": "s"}, "initial": {"value": 2, "index": 0}})");
  CHECK(m.op == ReduceOp::min);
  CHECK(m.nan == NanPolicy::propagate);
  CHECK(*m.initialValue == "2.0");
  KernelSpec mn = parse(R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmin",
    "input": {"dtype": "i64", "shape": ["n"]}, "initial": {"value": -9223372036854775808, "index": -9223372036854775808}})");
  CHECK(*mn.initialValue == "(-9223372036854775807ll - 1)");
  CHECK(*mn.initialIndex == INT64_MIN);
}

TEST_CASE("spec arg_reduce: errors name the place and the alternatives") {
  expectError(argSpec("").replace(argSpec("").find("argmax"), 6, "max"), "/op", {"allowed: argmin, argmax"});
  expectError(argSpec(R"(, "index": "middle")"), "/index", {"allowed: first, last"});
  expectError(argSpec(R"(, "index_type": "i16")"), "/index_type", {"allowed: i32, i64"});
  expectError(argSpec(R"(, "nan": "propagate")"), "/nan", {"float inputs only"});
  expectError(argSpec(R"(, "initial": {"value": 1.5, "index": 0})"), "/initial/value", {"not representable in i32"});
  expectError(argSpec(R"(, "initial": {"value": 3000000000, "index": 0})"), "/initial/value", {"not representable in i32"});
  // f32: a value that rounds to infinity (beyond FLT_MAX and half an ulp) would be infinity in the generated code.
  const std::string f32Spec = R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmax",
    "input": {"dtype": "f32", "shape": ["n"]}, "initial": {"value": VALUE, "index": 0}})";
  auto withValue = [&](const std::string& v) { return std::string(f32Spec).replace(f32Spec.find("VALUE"), 5, v); };
  expectError(withValue("-3.5e38"), "/initial/value", {"out of range for f32", "largest finite f32 is 3.40282347e+38"});
  CHECK_NOTHROW(parse(withValue("3.4028234663852886e38")));
  CHECK_NOTHROW(parse(withValue("3.40282347E+38")));
  expectError(argSpec(R"(, "initial": {"value": 1})"), "/initial/index", {"missing required key \"index\""});
  expectError(argSpec(R"(, "index_type": "i32", "initial": {"value": 1, "index": 4000000000})"), "/initial/index",
              {"does not fit index_type i32"});
  expectError(argSpec(R"(, "output": {"dtype": "i64"})"), "/output", {"does not apply to kind \"arg_reduce\""});
  expectError(argSpec(R"(, "strategy": "auto")"), "/strategy", {"belongs to kind \"reduce\""});
  expectError(argSpec(R"(, "schedule": {"rows": 2})"), "/schedule", {"allowed: accumulators, block"});
  expectError(argSpec(R"(, "schedule": {"block": 8})"), "/schedule/block", {"from 64 to"});
  expectError(R"({"simdgen": 1, "name": "k", "kind": "reduce", "op": "add", "index": "first",
    "input": {"dtype": "i32", "shape": ["n"]}})", "/index", {"does not apply to kind \"reduce\""});
  expectError(R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmax", "axis": 0,
    "input": {"dtype": "i32", "shape": ["r", "c"]}})", "/axis", {"allowed: 1"});
}
