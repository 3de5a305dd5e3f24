// SPDX-License-Identifier: Apache-2.0
// The contraction family: spec errors say where and why, and every plan (generic targets at
// 128..2048 bits, and each real target's plan) computes, in the interpreter, what a double
// precision loop over the spec's definition computes, within a rounding bound.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include "contraction_check.h"
#include "ir/simplify.h"
#include "plan/family.h"
#include "plan/reduce_builder.h"  // PlanError
#include "spec/spec.h"
#include "spec_errors.h"

using namespace simdgen;

namespace {

std::string spec(const std::string& body) { return simdgen::testing::contractionSpec(body); }
using simdgen::testing::checkIntPlans;
using simdgen::testing::checkPlans;
using simdgen::testing::contractionSpec;

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
             "/operands/0/index/1", "reads before the tensor's first element");
  // A "same" convolution's window offset: the message says how to read the padding.
  checkError(R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "ky", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["y + ky - 1"]}, {"name": "b", "index": ["ky"]}],
  "output": {"name": "c", "index": ["y"]})J",
             "/operands/0/index/0", "make the operand padded, \"padding\": \"zero\" with its real \"extents\"");
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
  // B stored transposed: not contiguous along j: through the transposing panel on x86 and NEON,
  // gathered on SVE (no panel for scalable vectors).
  const std::string bt = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "bt", "index": ["j", "k"]}],
  "output": {"name": "c", "index": ["i", "j"]},
  "epilogue": [{"op": "relu"}])J";
  for (int64_t m : {1, 6, 11})
    for (int64_t n : {3, 33}) {
      checkPlans(spec(acc), {{"m", m}, {"n", n}, {"k", 5}}, uint64_t(m * 100 + n));
      checkPlans(spec(bt), {{"m", m}, {"n", n}, {"k", 4}}, uint64_t(m * 100 + n + 1));
    }
  // Long reductions: several blocks of the packed panel (512 steps on AVX-512, 2048 on AVX2 and
  // NEON; the last block shorter), init and epilogue around them.
  checkPlans(spec(kMatmul), {{"m", 7}, {"n", 70}, {"k", 4100}}, 21);
  checkPlans(spec(acc), {{"m", 9}, {"n", 66}, {"k", 1030}}, 22);
  // A transposed B goes into the panel through L x L transpose tiles (whole columns; the steps
  // after the last whole tile and the partial column element by element), several blocks.
  checkPlans(spec(bt), {{"m", 5}, {"n", 70}, {"k", 1100}}, 23);
  checkPlans(spec(bt), {{"m", 7}, {"n", 49}, {"k", 37}}, 24);
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
  // f64: half the lanes, the same nests (a panel of several blocks, the transposing panel, the
  // accumulating form with its epilogue), checked in double against a 53-bit rounding bound.
  checkPlans(contractionSpec(kMatmul, "k", "f64"), {{"m", 7}, {"n", 37}, {"k", 1100}}, 25);
  checkPlans(contractionSpec(bt, "k", "f64"), {{"m", 6}, {"n", 19}, {"k", 9}}, 26);
  checkPlans(contractionSpec(acc, "k", "f64"), {{"m", 5}, {"n", 17}, {"k", 3}}, 27);
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

TEST_CASE("contraction spec: an operand packed ahead is rewritten into the copy the kernel reads") {
  const std::string batched = R"J(  "dims": [{"name": "b", "extent": "batch"}, {"name": "i", "extent": "m"}, {"name": "j", "extent": "n"},
           {"name": "k", "extent": "kk", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["b", "i", "k"], "strides": ["sa", "lda", 1]},
               {"name": "w", "index": ["j", "b", "k"], "strides": ["m", "ldw", 1], "pack": "ahead"}],
  "output": {"name": "c", "index": ["b", "i", "j"]})J";
  const KernelSpec s = parseSpecText(spec(batched), "t.json");
  const ContractionTensor& w = s.contraction.operands[1];
  CHECK(w.name == "w_packed");
  REQUIRE(w.index.size() == 3);  // other parallel dims, reductions, the vector dim
  CHECK(w.index[0].text == "b");
  CHECK(w.index[1].text == "k");
  CHECK(w.index[2].text == "j");
  CHECK(w.strides.empty());  // dense
  REQUIRE(w.packedFrom);
  CHECK(w.packedFrom->name == "w");
  CHECK(w.packedFrom->index[0].text == "j");
  CHECK(w.packedFrom->strides.size() == 3);
  // ldw is the pack function's parameter, not the kernel's; m stays an extent.
  CHECK(s.contraction.strideNames == std::vector<std::string>{"sa", "lda"});
  CHECK_FALSE(s.contraction.operands[0].packedFrom);
  // The kernel on the copy computes the definition on every target and vector length.
  checkPlans(spec(batched), {{"batch", 2}, {"m", 5}, {"n", 19}, {"kk", 4}, {"sa", 23}, {"lda", 4}}, 21);
  // Both operands packed ahead (both run along the channels).
  const std::string both = R"J(  "dims": [{"name": "x", "extent": "len"}, {"name": "c", "extent": 20}, {"name": "r", "extent": 5, "kind": "reduction"}],
  "operands": [{"name": "p", "index": ["c", "r"], "pack": "ahead"}, {"name": "q", "index": ["r", "x", "c"], "pack": "ahead"}],
  "output": {"name": "o", "index": ["x", "c"]})J";
  const KernelSpec t = parseSpecText(spec(both), "t.json");
  CHECK(t.contraction.operands[0].index[0].text == "r");
  CHECK(t.contraction.operands[1].index[0].text == "x");  // a parallel dim outermost
  CHECK(t.contraction.operands[1].index[1].text == "r");
  checkPlans(spec(both), {{"len", 7}}, 22);
}

TEST_CASE("contraction plans: a copy packed ahead runs in blocks of 2048 bits along the vector dim") {
  // The block: 64 elements of 4 bytes, 32 of 8; none for bf16 and narrow copies (read in groups
  // of steps) nor where a schedule shifts the vector dim's last tile inwards.
  const std::string packedB = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["j", "k"], "pack": "ahead"}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  CHECK(parseSpecText(spec(packedB), "t.json").contraction.operands[1].packBlock == 64);
  CHECK(parseSpecText(contractionSpec(packedB, "k", "f64"), "t.json").contraction.operands[1].packBlock == 32);
  CHECK(parseSpecText(contractionSpec(packedB, "k", "i32"), "t.json").contraction.operands[1].packBlock == 64);
  CHECK(parseSpecText(simdgen::testing::withBf16Operands(spec(packedB), {"a", "b"}), "t.json").contraction.operands[1].packBlock == 0);
  std::string narrow = contractionSpec(packedB, "k", "i32");
  narrow.insert(narrow.find("\"name\": \"b\", ") + 13, "\"dtype\": \"i8\", ");
  CHECK(parseSpecText(narrow, "t.json").contraction.operands[1].packBlock == 0);
  const std::string shifted = spec(packedB + R"J(,
  "schedule": {"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 2, "tail": "shift_inwards"}, {"vectorize": "ji"}, {"unroll": "ji"}]})J");
  CHECK(parseSpecText(shifted, "t.json").contraction.operands[1].packBlock == 0);
  const std::string shiftedRows = spec(packedB + R"J(,
  "schedule": {"output": [{"split": "i", "into": ["io", "ii"], "factor": 3, "tail": "shift_inwards"}, {"vectorize": "j"}, {"unroll": "ii"}]})J");
  CHECK(parseSpecText(shiftedRows, "t.json").contraction.operands[1].packBlock == 64);  // rows may shift
  // Against the definition (the checker lays the copy out in blocks itself), over extents that
  // end inside the first, second and third block, on every target and vector length (SVE's at
  // every vscale the checker runs: each vector inside one block).
  for (int64_t n : {63, 64, 65, 130, 150})
    for (int64_t m : {1, 7}) {
      CAPTURE(n);
      CAPTURE(m);
      checkPlans(spec(packedB), {{"m", m}, {"n", n}, {"k", 5}}, uint64_t(n * 10 + m));
    }
  // A window (three reduction dims) and a batch dim in the copy.
  const std::string conv = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "w"}, {"name": "c", "extent": "cout"},
           {"name": "ky", "extent": 2, "kind": "reduction"}, {"name": "kx", "extent": 3, "kind": "reduction"}, {"name": "ci", "extent": "cin", "kind": "reduction"}],
  "operands": [{"name": "weight", "index": ["c", "ci", "ky", "kx"], "pack": "ahead"}, {"name": "input", "index": ["y + ky", "x + kx", "ci"]}],
  "init": {"name": "bias", "index": ["c"]},
  "output": {"name": "out", "index": ["y", "x", "c"]},
  "epilogue": [{"op": "relu"}])J";
  checkPlans(spec(conv), {{"h", 2}, {"w", 7}, {"cout", 131}, {"cin", 3}}, 31);
  // An i32 copy (exact, wrapping sums: any misplaced element shows).
  checkIntPlans(contractionSpec(packedB, "k", "i32"), {{"m", 3}, {"n", 129}, {"k", 4}}, 32);
}

TEST_CASE("contraction spec: pack ahead errors say where and why") {
  checkError(R"J(  "dims": [{"name": "x", "extent": "w"}, {"name": "c", "extent": 16}, {"name": "r", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "f", "index": ["r", "c"]}, {"name": "a", "index": ["x + r", "c"], "pack": "ahead"}],
  "output": {"name": "o", "index": ["x", "c"]})J",
             "/operands/1/index/0", "indexed by plain dims");
  checkError(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": 8, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["k", "i"], "pack": "ahead"}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J",
             "/operands/0/pack", "does not depend on \"j\"");
  checkError(kMatmul + R"J(,
  "init": {"name": "bias", "index": ["j"], "pack": "ahead"})J",
             "/init/pack", "only an operand");
  checkError(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": 8, "kind": "reduction"}],
  "operands": [{"name": "b_packed", "index": ["i", "k"]}, {"name": "b", "index": ["j", "k"], "pack": "ahead"}],
  "output": {"name": "c", "index": ["i", "j"]})J",
             "/operands/1/name", "is named \"b_packed\", which another parameter has");
  checkError(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": 8, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"], "pack": "later"}],
  "output": {"name": "c", "index": ["i", "j"]})J",
             "/operands/1/pack", "allowed: ahead");
  checkError(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": 8, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j", "j"], "pack": "ahead"}],
  "output": {"name": "c", "index": ["i", "j"]})J",
             "/operands/1/index/2", "indexes the operand twice");
}

TEST_CASE("contraction plans: bf16 operands are widened exactly and summed in f32") {
  // Every way an operand is read: broadcast elements (a), vectors into the panel (b), a transposed
  // B through the transpose network or element by element (bt), gathers (SVE), one lane (scalar),
  // masked partial vectors, a depthwise convolution whose operands both run along the vector dim,
  // and a copy packed ahead (kept bf16). The reference multiplies the bf16 values in double.
  auto bf16 = [](const std::string& body, const std::vector<std::string>& names) { return spec(simdgen::testing::withBf16Operands(body, names)); };
  for (int64_t m : {1, 7})
    for (int64_t n : {5, 17, 65}) checkPlans(bf16(kMatmul, {"a", "b"}), {{"m", m}, {"n", n}, {"k", 9}}, uint64_t(m * 100 + n));
  checkPlans(bf16(kMatmul, {"b"}), {{"m", 5}, {"n", 70}, {"k", 600}}, 31);  // several panel blocks
  checkPlans(bf16(kMatmul, {"a"}), {{"m", 13}, {"n", 33}, {"k", 0}}, 32);
  const std::string bt = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "bt", "index": ["j", "k"]}],
  "init": {"name": "bias", "index": ["j"]},
  "output": {"name": "c", "index": ["i", "j"]},
  "epilogue": [{"op": "relu"}])J";
  checkPlans(bf16(bt, {"a", "bt"}), {{"m", 6}, {"n", 37}, {"k", 35}}, 33);
  const std::string depthwise = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "width"}, {"name": "c", "extent": "ch"},
           {"name": "ry", "extent": 3, "kind": "reduction"}, {"name": "rx", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["y + ry", "x + rx", "c"]}, {"name": "w", "index": ["ry", "rx", "c"]}],
  "output": {"name": "output", "index": ["y", "x", "c"]})J";
  checkPlans(bf16(depthwise, {"input", "w"}), {{"h", 2}, {"width", 5}, {"ch", 21}}, 34);
  const std::string packed = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "bt", "index": ["j", "k"], "pack": "ahead"}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  checkPlans(bf16(packed, {"a", "bt"}), {{"m", 7}, {"n", 19}, {"k", 6}}, 35);
  const KernelSpec s = parseSpecText(bf16(packed, {"bt"}), "t.json");
  CHECK(s.contraction.operands[1].bf16);  // the copy packed ahead stays bf16
  CHECK_FALSE(s.contraction.operands[0].bf16);
}

TEST_CASE("contraction spec: operand dtype errors say where and what is allowed") {
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "dtype": "f16"}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J",
             "/operands/0/dtype", "\"bf16\" (stored as bfloat16, computed in f32), in an i32 contraction one of i8, u8, i16, u16 (widened exactly, computed in i32); found \"f16\"");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"], "dtype": "bf16"})J",
             "/output/dtype", "only an operand");
  checkError(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "init": {"name": "bias", "index": ["i"], "dtype": "bf16"},
  "output": {"name": "c", "index": ["i"]})J",
             "/init/dtype", "only an operand");
  const SpecError f64 = errorOf(R"J({"simdgen": 1, "name": "k", "kind": "contraction", "dtype": "f64",
  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "dtype": "bf16"}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]}})J");
  CHECK_MESSAGE(f64.pointer == "/operands/0/dtype", f64.what());
  CHECK_MESSAGE(std::string(f64.what()).find("in an f32 contraction \"bf16\"") != std::string::npos, f64.what());
  const std::string ints = R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "dtype": "@A@"}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]}@E@)J";
  auto intSpec = [&](const std::string& a, const std::string& epilogue) {
    std::string body = ints;
    body.replace(body.find("@A@"), 3, a);
    body.replace(body.find("@E@"), 3, epilogue);
    return contractionSpec(body, "k", "i32");
  };
  for (const char* bad : {"bf16", "i64", "f32", "u32"}) {
    const SpecError e = errorOf(intSpec(bad, ""));
    CHECK_MESSAGE(e.pointer == "/operands/0/dtype", e.what());
    CHECK_MESSAGE(std::string(e.what()).find("in an i32 contraction one of i8, u8, i16, u16") != std::string::npos, e.what());
  }
  for (const char* bound : {"0.5", "2147483648", "-2147483649", "\"1\""}) {
    const SpecError e = errorOf(intSpec("i8", std::string(R"J(, "epilogue": [{"op": "clamp", "min": )J") + bound + R"J(, "max": 3}])J"));
    CHECK_MESSAGE(e.pointer == "/epilogue/0/min", e.what());
    CHECK_MESSAGE(std::string(e.what()).find("expected an integer from -2147483648 to 2147483647") != std::string::npos, e.what());
  }
  const SpecError i16 = errorOf(contractionSpec(R"J(  "dims": [{"name": "i", "extent": 4}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "c", "index": ["i"]})J", "k", "i16"));
  CHECK_MESSAGE(i16.pointer == "/dtype", i16.what());
  CHECK_MESSAGE(std::string(i16.what()).find("allowed: f32, f64, i32") != std::string::npos, i16.what());
}

TEST_CASE("contraction plans: i32 sums of i8, u8, i16, u16 and i32 operands are exact and wrap") {
  // Every read path (broadcast, panel, transposed panel, one lane, masked tails, packed ahead, a
  // depthwise convolution) with operands over their whole range: products and sums overflow.
  const std::string matmul = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "strides": ["lda", 1], "dtype": "@A@"}, {"name": "b", "index": ["k", "j"], "dtype": "@B@"}],
  "init": {"name": "bias", "index": ["j"]},
  "output": {"name": "c", "index": ["i", "j"], "strides": ["ldc", 1]},
  "epilogue": [{"op": "clamp", "min": -2147483648, "max": 1000000}, {"op": "scale", "by": 3}, {"op": "add", "name": "r"}])J";
  const std::vector<std::pair<std::string, std::string>> pairs = {{"u8", "i8"}, {"i8", "u8"}, {"i16", "u16"}, {"u16", "i32"}, {"i32", "i16"}, {"i16", "i16"}, {"i8", "i16"}};
  uint64_t seed = 41;
  for (const auto& [a, b] : pairs) {
    CAPTURE(a);
    CAPTURE(b);
    std::string body = matmul;
    body.replace(body.find("@A@"), 3, a);
    body.replace(body.find("@B@"), 3, b);
    for (const auto& [m, n, k] : std::vector<std::array<int64_t, 3>>{{7, 37, 5}, {1, 3, 1}, {13, 70, 9}})
      checkIntPlans(contractionSpec(body, "k", "i32"), {{"m", m}, {"n", n}, {"k", k}}, seed++);
  }
  // i16 pairs (vpmaddwd) from a transposed B: 70 steps are two whole 16 x 16 tiles of pairs on
  // AVX-512 (its first column of 64) and 6 more steps.
  checkIntPlans(contractionSpec(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "dtype": "i16"}, {"name": "bt", "index": ["j", "k"], "dtype": "i16"}],
  "output": {"name": "c", "index": ["i", "j"]})J", "k", "i32"), {{"m", 5}, {"n", 71}, {"k", 70}}, 6);
  // B transposed (a panel by transposing network or element by element) and B packed ahead, relu.
  checkIntPlans(contractionSpec(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "dtype": "i8"}, {"name": "bt", "index": ["j", "k"], "dtype": "u8"}],
  "output": {"name": "c", "index": ["i", "j"]}, "epilogue": [{"op": "relu"}])J", "k", "i32"), {{"m", 9}, {"n", 21}, {"k", 19}}, 7);
  checkIntPlans(contractionSpec(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "dtype": "u8"}, {"name": "bt", "index": ["j", "k"], "dtype": "i8", "pack": "ahead"}],
  "init": "output", "output": {"name": "c", "index": ["i", "j"]}, "epilogue": [{"op": "scale", "by": "alpha"}])J", "k", "i32"),
                {{"m", 5}, {"n", 33}, {"k", 6}}, 8);
  // A depthwise convolution (the vector dim indexes both operands) and a 1x3 window.
  checkIntPlans(contractionSpec(R"J(  "dims": [{"name": "x", "extent": "w"}, {"name": "c", "extent": "ch"}, {"name": "r", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "in", "index": ["x + r", "c"], "dtype": "i16"}, {"name": "f", "index": ["r", "c"], "dtype": "i8"}],
  "output": {"name": "out", "index": ["x", "c"]})J", "k", "i32"), {{"w", 6}, {"ch", 35}}, 9);
}

TEST_CASE("contraction plans: convolutions take dot-product groups through a panel of the whole window") {
  // A 3x3 window over NHWC activations: the filter's column of tiles goes into the group panel for
  // every window step (rz, ry) and a block of channel steps, the activations' channels are the
  // broadcast groups. Every byte pair (natural quads, x86 and Arm offsets), i16 pairs, and channel
  // counts that leave a partial group (3, 5, 9), fill whole groups (8) or need several panel blocks
  // (230: 224 channels a block for 4 vectors on AVX-512, then 6, a partial group among them).
  const std::string conv = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "w"}, {"name": "co", "extent": "cout"},
           {"name": "rz", "extent": 3, "kind": "reduction"}, {"name": "ry", "extent": 3, "kind": "reduction"}, {"name": "ci", "extent": "cin", "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["y + rz", "x + ry", "ci"], "strides": ["row", "cin", 1], "dtype": "@A@"}, {"name": "filter", "index": ["rz", "ry", "ci", "co"], "dtype": "@B@"}],
  "init": {"name": "bias", "index": ["co"]},
  "output": {"name": "out", "index": ["y", "x", "co"]},
  "epilogue": [{"op": "clamp", "min": -2147483648, "max": 1000000}])J";
  uint64_t seed = 51;
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{{"u8", "i8"}, {"i8", "i8"}, {"u8", "u8"}, {"i8", "u8"}, {"i16", "i16"}, {"i8", "i16"}}) {
    CAPTURE(a);
    CAPTURE(b);
    std::string body = conv;
    body.replace(body.find("@A@"), 3, a);
    body.replace(body.find("@B@"), 3, b);
    const std::string text = contractionSpec(body, "k", "i32");
    for (const auto& [h, w, co, ci] : std::vector<std::array<int64_t, 4>>{{1, 7, 37, 3}, {2, 3, 17, 8}, {1, 2, 65, 5}, {1, 9, 5, 9}})
      checkIntPlans(text, {{"h", h}, {"w", w}, {"cout", co}, {"cin", ci}}, seed++);
    if (a == "u8" || a == "i8") checkIntPlans(text, {{"h", 1}, {"w", 2}, {"cout", 70}, {"cin", 230}}, seed++);
  }
  // PyTorch's OIHW int8 weights packed ahead (weight_packed[ky][kx][ci][co]), then regrouped into
  // the window panel per call; i8 x i8 takes the offset on x86 VNNI, sdot on Arm.
  const std::string oihw = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "w"}, {"name": "co", "extent": "cout"},
           {"name": "ky", "extent": 2, "kind": "reduction"}, {"name": "kx", "extent": 3, "kind": "reduction"}, {"name": "ci", "extent": "cin", "kind": "reduction"}],
  "operands": [{"name": "weight", "index": ["co", "ci", "ky", "kx"], "dtype": "i8", "pack": "ahead"}, {"name": "input", "index": ["y + ky", "x + kx", "ci"], "dtype": "i8"}],
  "output": {"name": "out", "index": ["y", "x", "co"]}, "epilogue": [{"op": "relu"}])J";
  for (const auto& [h, w, co, ci] : std::vector<std::array<int64_t, 4>>{{2, 5, 19, 6}, {1, 3, 33, 13}})
    checkIntPlans(contractionSpec(oihw, "k", "i32"), {{"h", h}, {"w", w}, {"cout", co}, {"cin", ci}}, seed++);
  // A static channel count longer than one block runs in equal blocks (300 channels: two of 152
  // and 148 on avx512+vnni, whose blocks hold up to 224).
  std::string fixed = conv;
  fixed.replace(fixed.find(R"J({"name": "ci", "extent": "cin")J"), 30, R"J({"name": "ci", "extent": 300)J");
  fixed.replace(fixed.find("@A@"), 3, "u8");
  fixed.replace(fixed.find("@B@"), 3, "i8");
  const std::string fixedText = contractionSpec(fixed, "k", "i32");
  checkIntPlans(fixedText, {{"h", 1}, {"w", 3}, {"cout", 33}}, seed++);
  // The plan summary's lines on avx512+vnni, where the panel's block lengths are read.
  auto vnniNotes = [](const std::string& text) {
    std::string notes;
    for (const std::string& n : buildPlan(parseSpecText(text, "t.json"), makeTarget(TargetRequest{"avx512", {"vnni"}})).summary) notes += n + "\n";
    return notes;
  };
  const std::string fixedNotes = vnniNotes(fixedText);
  CHECK_MESSAGE(fixedNotes.find("152 steps of ci at a time") != std::string::npos, fixedNotes);
  // One at most a quarter longer than a block runs as one block in a larger panel: 258 channels
  // (a partial quad at the end) as one block of 260 steps, the panel 260 / 4 x 9 x 64 x 4 bytes.
  std::string single = fixed;
  single.replace(single.find(R"J("extent": 300)J"), 13, R"J("extent": 258)J");
  const std::string singleText = contractionSpec(single, "k", "i32");
  checkIntPlans(singleText, {{"h", 2}, {"w", 3}, {"cout", 70}}, seed++);
  const std::string singleNotes = vnniNotes(singleText);
  CHECK_MESSAGE(singleNotes.find("146 KiB panel, 260 steps of ci at a time") != std::string::npos, singleNotes);
  // The window panel is what runs: on avx512+vnni the u8 x i8 plan packs every step of rz, ry.
  std::string body = conv;
  body.replace(body.find("@A@"), 3, "u8");
  body.replace(body.find("@B@"), 3, "i8");
  const std::string notes = vnniNotes(contractionSpec(body, "k", "i32"));
  CHECK_MESSAGE(notes.find("224 steps of ci at a time for each of the 9 steps of rz, ry") != std::string::npos, notes);
  // bf16 pairs (vdpbf16ps, bfdot) through the same window panel, f32 sums.
  auto bf16 = [](const std::string& text, const std::vector<std::string>& names) { return spec(simdgen::testing::withBf16Operands(text, names)); };
  std::string f32 = conv;
  f32.replace(f32.find(", \"dtype\": \"@A@\""), 16, "");
  f32.replace(f32.find(", \"dtype\": \"@B@\""), 16, "");
  const std::string clamp = R"J({"op": "clamp", "min": -2147483648, "max": 1000000})J";
  f32.replace(f32.find(clamp), clamp.size(), R"J({"op": "relu"})J");
  checkPlans(bf16(f32, {"input", "filter"}), {{"h", 2}, {"w", 5}, {"cout", 21}, {"cin", 7}}, 61);
  checkPlans(bf16(f32, {"input", "filter"}), {{"h", 1}, {"w", 3}, {"cout", 17}, {"cin", 130}}, 62);
}

TEST_CASE("contraction: a plan that leaves most lanes idle says so in its summary and what to write instead") {
  auto notes = [](const std::string& body, const char* target) {
    std::string out;
    for (const std::string& n : buildPlan(parseSpecText(spec(body), "t.json"), makeTarget(TargetRequest{target, {}})).summary) out += n + "\n";
    return out;
  };
  // A dot product forced through a contraction: the output dim of extent 1 is the vector dim.
  const std::string dot = R"J(  "dims": [{"name": "i", "extent": 1}, {"name": "k", "extent": "n", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k"]}],
  "output": {"name": "y", "index": ["i"]})J";
  for (const char* target : {"avx512", "avx2", "neon", "sve"}) {
    const std::string n = notes(dot, target);
    CHECK_MESSAGE(n.find("warning: expected to be slow: the vectors run along i, whose extent is 1") != std::string::npos, n);
    CHECK_MESSAGE(n.find("a sum over k with so few outputs is a map with a reduction output") != std::string::npos, n);
  }
  CHECK(notes(dot, "scalar").find("warning") == std::string::npos);  // one lane is all a scalar plan has
  // A matmul with runtime extents, and one whose vector dim fills half a vector: no warning.
  CHECK(notes(kMatmul, "avx512").find("warning") == std::string::npos);
  std::string half = dot;
  half.replace(half.find(R"J("extent": 1})J"), 12, R"J("extent": 9})J");
  CHECK(notes(half, "avx512").find("warning") == std::string::npos);
}

TEST_CASE("contraction order sequential: no fused multiply-add on any target, the reduction loops in the spec's order") {
  const std::string mv = R"J(  "order": "sequential",
  "dims": [{"name": "i", "extent": "d"}, {"name": "j", "extent": "n", "kind": "reduction"}],
  "operands": [{"name": "w", "index": ["i", "j"]}, {"name": "x", "index": ["j"]}],
  "output": {"name": "y", "index": ["i"]})J";
  const std::string acc = R"J(  "order": "sequential",
  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"},
           {"name": "k", "extent": "kb", "kind": "reduction"}, {"name": "l", "extent": "lb", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k", "l"]}, {"name": "b", "index": ["k", "l", "j"]}],
  "init": "output",
  "output": {"name": "c", "index": ["i", "j"]})J";
  for (const char* dtype : {"f32", "f64"})
    for (const std::string& body : {mv, acc})
      for (const TargetRequest& target : {TargetRequest{"avx512", {}}, TargetRequest{"avx2", {"fma"}}, TargetRequest{"neon", {}},
                                          TargetRequest{"sve", {}}, TargetRequest{"scalar", {}}}) {
        const ir::Plan p = buildPlan(parseSpecText(contractionSpec(body, "k", dtype), "t.json"), makeTarget(target));
        CHECK_MESSAGE(!ir::contains(p.body, ir::OpKind::Fma), p.target);
        bool said = false;
        for (const auto& [key, value] : p.semantics) said = said || (key == "order" && value == "sequential");
        CHECK_MESSAGE(said, p.target);  // the exec driver then checks the results bit for bit
      }
  // Without it, the same spec fuses where the target can.
  std::string any = mv;
  any.replace(any.find("\"sequential\""), 12, "\"any\"");
  CHECK(ir::contains(buildPlan(parseSpecText(spec(any), "t.json"), makeTarget(TargetRequest{"avx512", {}})).body, ir::OpKind::Fma));
  // A schedule that runs l outside k changes the order of the terms: refused where it says so.
  std::string reordered = acc;
  reordered += R"J(,
  "schedule": {"update": [{"reorder": ["k", "l"]}]})J";
  const KernelSpec r = parseSpecText(spec(reordered), "t.json");
  CHECK_THROWS_WITH_AS(buildPlan(r, makeTarget(TargetRequest{"avx2", {}})),
                       doctest::Contains("changes the order of the reduction loops"), PlanError);
  std::string kept = acc;
  kept += R"J(,
  "schedule": {"update": [{"reorder": ["l", "k"]}]})J";
  CHECK_NOTHROW(buildPlan(parseSpecText(spec(kept), "t.json"), makeTarget(TargetRequest{"avx2", {}})));
  // bf16 operands go through dot-product instructions that add products in pairs.
  checkError(simdgen::testing::withBf16Operands(mv, {"w"}), "/order", "bf16 operand \"w\" is read by the bf16 dot-product instructions");
  // Other kinds: where the key belongs.
  const SpecError arg = errorOf(R"({"simdgen": 1, "name": "k", "kind": "arg_reduce", "op": "argmax", "order": "any",
    "input": {"dtype": "f32", "shape": ["n"]}})");
  CHECK(arg.pointer == "/order");
  CHECK(std::string(arg.what()).find("belongs to kind \"reduce\" and \"contraction\"") != std::string::npos);
}

TEST_CASE("contraction epilogue div: each sum divided by a number or a runtime scalar, rounded once") {
  const std::string scores = R"J(  "dims": [{"name": "t", "extent": "positions"}, {"name": "i", "extent": "head", "kind": "reduction"}],
  "operands": [{"name": "q", "index": ["i"]}, {"name": "keys", "index": ["t", "i"], "strides": ["ld", 1]}],
  "output": {"name": "att", "index": ["t"]},
  "epilogue": [{"op": "div", "by": "d"}, {"op": "relu"}])J";
  checkPlans(spec(scores), {{"positions", 37}, {"head", 19}, {"ld", 23}}, 41);
  std::string literal = scores;
  literal.replace(literal.find(R"J("by": "d")J"), 9, R"J("by": 2.5)J");
  checkPlans(spec(literal), {{"positions", 9}, {"head", 5}, {"ld", 5}}, 42);
  const KernelSpec s = parseSpecText(spec(scores), "t.json");
  REQUIRE(s.contraction.epilogue.size() == 2);
  CHECK(s.contraction.epilogue[0].kind == EpilogueStep::Kind::div);
  CHECK(s.contraction.epilogue[0].param == "d");
  const SpecError i32 = errorOf(contractionSpec(scores, "k", "i32"));
  CHECK(i32.pointer == "/epilogue/0/op");
  CHECK(std::string(i32.what()).find("div divides floats") != std::string::npos);
}

TEST_CASE("contraction padding: reads outside a padded operand's extents are zeros, on every target") {
  // "Same" convolutions: the interior tiles unchecked, the border ones checking each read. Images
  // of 1, 2 and 3 pixels (every tile on the border), wider ones (interior tiles too).
  const std::string conv = R"J(  "dims": [{"name": "n", "extent": "batch"}, {"name": "y", "extent": "h"}, {"name": "x", "extent": "w"},
           {"name": "co", "extent": "cout"}, {"name": "ky", "extent": 3, "kind": "reduction"},
           {"name": "kx", "extent": 3, "kind": "reduction"}, {"name": "ci", "extent": "cin", "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["n", "y + ky - 1", "x + kx - 1", "ci"], "padding": "zero", "extents": ["batch", "h", "w", "cin"]},
               {"name": "weight", "index": ["ky", "kx", "ci", "co"]}],
  "init": {"name": "bias", "index": ["co"]},
  "output": {"name": "output", "index": ["n", "y", "x", "co"]},
  "epilogue": [{"op": "relu"}])J";
  for (int64_t h : {1, 3, 5})
    for (int64_t w : {1, 2, 9, 16}) checkPlans(spec(conv), {{"batch", 2}, {"h", h}, {"w", w}, {"cout", 19}, {"cin", 3}}, uint64_t(h * 100 + w));
  // A 5 x 5 window padded by 2, a 1-D one padded on one side only ("x + k - 2" over a longer
  // extent), static extents.
  const std::string wide = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "w"}, {"name": "co", "extent": 9},
           {"name": "ky", "extent": 5, "kind": "reduction"}, {"name": "kx", "extent": 5, "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["y + ky - 2", "x + kx - 2"], "padding": "zero", "extents": ["h", "w"]},
               {"name": "weight", "index": ["ky", "kx", "co"]}],
  "output": {"name": "output", "index": ["y", "x", "co"]})J";
  checkPlans(spec(wide), {{"h", 6}, {"w", 13}}, 41);
  const std::string causal = R"J(  "dims": [{"name": "x", "extent": 20}, {"name": "c", "extent": "ch"}, {"name": "k", "extent": 4, "kind": "reduction"}],
  "operands": [{"name": "signal", "index": ["x + k - 3", "c"], "padding": "zero", "extents": [20, "ch"]},
               {"name": "taps", "index": ["k", "c"]}],
  "output": {"name": "output", "index": ["x", "c"]})J";
  checkPlans(spec(causal), {{"ch", 17}}, 42);
  // Depthwise: the padded operand runs along the vector dim (whole vectors loaded or zero).
  const std::string depthwise = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "w"}, {"name": "c", "extent": "ch"},
           {"name": "ky", "extent": 3, "kind": "reduction"}, {"name": "kx", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["y + ky - 1", "x + kx - 1", "c"], "padding": "zero", "extents": ["h", "w", "ch"]},
               {"name": "weight", "index": ["ky", "kx", "c"]}],
  "output": {"name": "output", "index": ["y", "x", "c"]})J";
  checkPlans(spec(depthwise), {{"h", 4}, {"w", 11}, {"ch", 21}}, 43);
  // Planar (CHW) input of an HWC output: the padded operand steps by h * w along the vector dim,
  // so its vectors are gathers (never a transposing panel: a panel would drop the padding).
  const std::string planar = R"J(  "dims": [{"name": "y", "extent": "h"}, {"name": "x", "extent": "w"}, {"name": "c", "extent": "ch"},
           {"name": "ky", "extent": 3, "kind": "reduction"}, {"name": "kx", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "input", "index": ["c", "y + ky - 1", "x + kx - 1"], "padding": "zero", "extents": ["ch", "h", "w"]},
               {"name": "weight", "index": ["ky", "kx", "c"]}],
  "output": {"name": "output", "index": ["y", "x", "c"]})J";
  checkPlans(spec(planar), {{"h", 3}, {"w", 7}, {"ch", 19}}, 49);
  // Byte and i16 groups (vpdpbusd, usdot, sdot with an offset, vpmaddwd pairs): a border tile
  // loads a group only when its pixel lies inside, else a zero group.
  uint64_t seed = 44;
  for (const char* a : {"u8", "i8", "i16"}) {
    std::string text = conv;
    text.replace(text.find("\"padding\""), 0, "\"dtype\": \"" + std::string(a) + "\", ");
    text.replace(text.find("\"index\": [\"ky\", \"kx\", \"ci\", \"co\"]"), 0, "\"dtype\": \"i8\", ");
    text = contractionSpec(text, "k", "i32");
    for (int64_t w : {2, 9}) checkIntPlans(text, {{"batch", 1}, {"h", 3}, {"w", w}, {"cout", 37}, {"cin", 7}}, seed++);
  }
  // The plan says how it reads the padding, and the border check is in the plan, not the interior's.
  const ir::Plan p = buildPlan(parseSpecText(spec(conv), "t.json"), makeTarget(TargetRequest{"avx2", {"fma"}}));
  bool said = false;
  for (const std::string& line : p.summary) said = said || line.find("padding: input") != std::string::npos;
  CHECK(said);
  CHECK(p.print().find("if pad_slack >= 0") != std::string::npos);
}

TEST_CASE("contraction padding: errors say where and what is allowed") {
  const std::string head = R"J(  "dims": [{"name": "n", "extent": "h"}, {"name": "c", "extent": "w"}, {"name": "k", "extent": 3, "kind": "reduction"}],
  )J";
  auto with = [&](const std::string& a, const std::string& output = R"J({"name": "o", "index": ["n", "c"]})J") {
    return head + R"J("operands": [)J" + a + R"J(, {"name": "b", "index": ["k", "c"]}],
  "output": )J" + output;
  };
  checkError(with(R"J({"name": "a", "index": ["n + k - 1", "c"]})J"), "/operands/0/index/0", "reads before the tensor's first element");
  checkError(with(R"J({"name": "a", "index": ["n + k - 1", "c"], "padding": "zero"})J"), "/operands/0/padding", "needs \"extents\"");
  checkError(with(R"J({"name": "a", "index": ["n + k", "c"], "extents": ["h", "w"]})J"), "/operands/0/extents", "add \"padding\": \"zero\"");
  checkError(with(R"J({"name": "a", "index": ["n + k - 1", "c"], "padding": "edge", "extents": ["h", "w"]})J"), "/operands/0/padding", "zero");
  checkError(with(R"J({"name": "a", "index": ["n + k - 1", "c"], "padding": "zero", "extents": ["h"]})J"), "/operands/0/extents", "one extent per index entry (2)");
  checkError(with(R"J({"name": "a", "index": ["n + k - 1", "c"], "padding": "zero", "extents": ["hh", "w"]})J"), "/operands/0/extents/0",
             "\"hh\" is no dim's extent");
  checkError(with(R"J({"name": "a", "index": ["n + k - 1", "c"], "padding": "zero", "extents": ["h", "w"], "pack": "ahead"})J"), "/operands/0/pack",
             "cannot be packed ahead");
  checkError(with(R"J({"name": "a", "index": ["n", "c + k - 1"], "padding": "zero", "extents": ["h", "w"]})J"), "/operands/0/index/1",
             "the output's innermost dim");
  checkError(with(R"J({"name": "a", "index": ["n - k", "c"], "padding": "zero", "extents": ["h", "w"]})J"), "/operands/0/index/0",
             "only an integer may be subtracted");
  checkError(with(R"J({"name": "a", "index": ["n + k", "c"]})J", R"J({"name": "o", "index": ["n", "c"], "padding": "zero", "extents": ["h", "w"]})J"),
             "/output/padding", "only an operand");
}
