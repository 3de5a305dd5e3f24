// SPDX-License-Identifier: Apache-2.0
// Contraction schedules (seed 002's Halide directives): the seed's full schedule gives the seed's
// loop structure, several schedules of one computation each agree with the definition on every
// target (so with each other), and schedules the builder cannot honour are errors that name the
// directive (JSON pointer) and say why.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "contraction_check.h"
#include "emit/emitter.h"
#include "ir/plan.h"
#include "plan/family.h"
#include "plan/reduce_builder.h"  // PlanError
#include "spec/spec.h"
#include "spec_errors.h"
#include "targets/target.h"

using namespace simdgen;
using simdgen::testing::checkIntPlans;
using simdgen::testing::checkPlans;
using simdgen::testing::contractionSpec;

namespace {

const std::string kMatmul = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"], "strides": ["lda", 1]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"], "strides": ["ldc", 1]})J";

const std::string kConv = R"J(  "dims": [{"name": "n", "extent": "batch"}, {"name": "y", "extent": "h"}, {"name": "x", "extent": "w"},
           {"name": "c", "extent": "cout"}, {"name": "rz", "extent": 3, "kind": "reduction"},
           {"name": "ry", "extent": 3, "kind": "reduction"}, {"name": "rx", "extent": "cin", "kind": "reduction"}],
  "operands": [{"name": "filter", "index": ["rx", "rz", "ry", "c"]}, {"name": "input", "index": ["n", "y + rz", "x + ry", "rx"]}],
  "init": {"name": "bias", "index": ["c"]},
  "output": {"name": "relu", "index": ["n", "y", "x", "c"]},
  "epilogue": [{"op": "relu"}])J";

std::string withSchedule(const std::string& body, const std::string& schedule) { return contractionSpec(body + ",\n  \"schedule\": " + schedule); }

std::string readFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Target targetNamed(const std::string& isa, std::vector<std::string> features = {}) { return makeTarget(TargetRequest{isa, std::move(features)}); }

// The PlanError that planning `text` for `target` raises.
PlanError planErrorOf(const std::string& text, const Target& target) {
  const KernelSpec s = parseSpecText(text, "t.json");
  try {
    buildPlan(s, target);
  } catch (const PlanError& e) {
    return e;
  }
  FAIL("expected a PlanError on " << target.spelling << " for:\n" << text);
  throw;
}

void checkPlanError(const std::string& text, const Target& target, const std::string& pointer, const std::string& part) {
  const PlanError e = planErrorOf(text, target);
  CHECK_MESSAGE(e.pointer == pointer, std::string(e.what()));
  CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, std::string(e.what()));
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("contraction schedule: the seed's full schedule gives the seed's loop nest") {
  const KernelSpec s = parseSpecText(readFile(SIMDGEN_SOURCE_DIR "/specs/conv_seed_schedule_f32.json"), "conv_seed_schedule_f32.json");
  const ir::Plan plan = buildPlan(s, targetNamed("avx512"));
  const std::vector<std::string>& nest = plan.summary;
  CAPTURE(plan.summary.size());
  // for co / for n / for y / for xo / 5 x 4 sums / rz / ry / rx unrolled by 2: 4 loads, 5 broadcasts, 20 FMAs.
  CHECK(has(nest, "register tile: 5 x 4 vectors of f32x16 (20 accumulators) along x x c"));
  CHECK(has(nest, "  for co: tiles of 4 x f32x16 along c"));
  CHECK(has(nest, "    for n"));
  CHECK(has(nest, "      for y"));
  CHECK(has(nest, "        for xo: tiles of 5 rows along x"));
  CHECK(has(nest, "          sums[5][4] = bias[c]   (compute_at xo: in registers)"));
  CHECK(has(nest, "          for rz"));
  CHECK(has(nest, "            for ry"));
  CHECK(has(nest, "              for rx, unrolled by 2"));
  CHECK(has(nest, "                sums[5][4] += filter[rx][rz][ry][c] * input[n][y + rz][x + ry][rx]"));
  CHECK(has(nest, "4 vector loads, 5 broadcasts, 20 FMAs"));
  CHECK(has(nest, "          relu[n][y][x][c] = relu(sums)"));
  // On one lane every value is one element: 6 of the input (one per row), 2 of the filter.
  const ir::Plan scalar = buildPlan(s, targetNamed("scalar"));
  CHECK(has(scalar.summary, "sums[6][2] += filter[rx][rz][ry][c] * input[n][y + rz][x + ry][rx]: 8 loads, 12 multiply-adds"));
  // The same computation under the spec's other schedules and the default, on every target.
  for (int64_t w : {1, 5, 7, 12})
    for (int64_t cout : {3, 40, 70})
      for (int64_t cin : {1, 4}) {
        CAPTURE(w);
        CAPTURE(cout);
        CAPTURE(cin);
        checkPlans(readFile(SIMDGEN_SOURCE_DIR "/specs/conv_seed_schedule_f32.json"),
                   {{"batch", 1}, {"height", 2}, {"width", w}, {"out_channels", cout}, {"in_channels", cin}}, uint64_t(w * 1000 + cout * 10 + cin));
      }
}

TEST_CASE("contraction schedule: several schedules of a matmul agree with the definition") {
  const std::vector<std::string> schedules = {
      // Tails predicate (vector dim) and shift_inwards (rows), k unrolled by 3, no packing.
      R"J({"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 2, "tail": "predicate"},
                      {"split": "i", "into": ["io", "ii"], "factor": 3, "tail": "shift_inwards"},
                      {"reorder": ["ji", "ii", "io", "jo"]}, {"vectorize": "ji"}, {"unroll": "ji"}, {"unroll": "ii"}],
           "update": [{"unroll": "k", "factor": 3}], "pack": []})J",
      // Tails guard on both, rows outermost (the tile loop of j inside), packing where it can.
      R"J({"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 3, "tail": "guard"},
                      {"split": "i", "into": ["io", "ii"], "factor": 3},
                      {"reorder": ["ji", "ii", "jo", "io"]}, {"vectorize": "ji"}, {"unroll": "ji"}, {"unroll": "ii"}],
           "compute_at": "jo"})J",
      // shift_inwards on the vector dim, one row per tile.
      R"J({"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 2, "tail": "shift_inwards"}, {"vectorize": "ji"}, {"unroll": "ji"}]})J",
      // No vectorize: a 2 x 3 tile of scalars on every target.
      R"J({"output": [{"split": "j", "into": ["jo", "ji"], "factor": 3}, {"split": "i", "into": ["io", "ii"], "factor": 2},
                      {"reorder": ["ji", "ii", "jo", "io"]}, {"unroll": "ji"}, {"unroll": "ii"}], "update": [{"unroll": "k", "factor": 2}]})J",
      // Halide's shorthands: vectorize(j) splits j by one vector; unroll(i, 4) splits i by 4.
      R"J({"output": [{"vectorize": "j"}, {"unroll": "i", "factor": 4}, {"reorder": ["j_vi", "i_ui", "i", "j"]}]})J",
  };
  for (size_t k = 0; k < schedules.size(); ++k)
    for (int64_t m : {1, 3, 7, 10})
      for (int64_t n : {1, 5, 17, 40})
        for (int64_t kk : {0, 1, 7}) {
          CAPTURE(k);
          CAPTURE(m);
          CAPTURE(n);
          CAPTURE(kk);
          checkPlans(withSchedule(kMatmul, schedules[k]), {{"m", m}, {"n", n}, {"k", kk}}, uint64_t(k * 100000 + m * 1000 + n * 10 + kk));
        }
  // B packed ahead, in blocks of 64 along j (but under the schedule that shifts j's last tile):
  // each nest reads the blocks where its tiles and tails start.
  std::string packedAhead = kMatmul;
  const std::string plainB = R"("index": ["k", "j"]})";
  packedAhead.replace(packedAhead.find(plainB), plainB.size(), R"("index": ["k", "j"], "pack": "ahead"})");
  for (size_t k = 0; k < schedules.size(); ++k)
    for (int64_t m : {1, 7})
      for (int64_t n : {70, 131}) {
        CAPTURE(k);
        CAPTURE(m);
        CAPTURE(n);
        checkPlans(withSchedule(packedAhead, schedules[k]), {{"m", m}, {"n", n}, {"k", 3}}, uint64_t(k * 1000 + m * 10 + n));
      }
  // Packing asked for on the targets that can, with blocks of the reduction (KC: 1024 steps of 2
  // vectors on AVX-512, 2048 on AVX2, 4096 on NEON, 256 on SVE, whose panel is sized for 2048-bit
  // vectors; 4100 steps cross each).
  const std::string packed = R"J([{"targets": ["avx512", "avx2+fma", "neon", "sve"],
     "output": [{"split": "j", "into": ["jo", "ji"], "vectors": 2}, {"split": "i", "into": ["io", "ii"], "factor": 5},
                {"reorder": ["ji", "ii", "io", "jo"]}, {"vectorize": "ji"}, {"unroll": "ji"}, {"unroll": "ii"}],
     "update": [{"unroll": "k", "factor": 2}], "pack": ["b"]}])J";
  checkPlans(withSchedule(kMatmul + ",\n  \"targets\": [\"avx512\", \"avx2+fma\", \"neon\", \"sve\"]", packed), {{"m", 11}, {"n", 37}, {"k", 4100}}, 5);
  // round_up on static extents: 36 rows in tiles of 6.
  const std::string fixed = R"J(  "dims": [{"name": "i", "extent": 36}, {"name": "j", "extent": 19}, {"name": "k", "extent": 5, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  checkPlans(withSchedule(fixed, R"J({"output": [{"split": "i", "into": ["io", "ii"], "factor": 6, "tail": "round_up"}, {"unroll": "ii"},
                                                 {"vectorize": "j"}, {"reorder": ["j_vi", "ii", "j", "io"]}], "update": [{"unroll": "k"}]})J"),
             {}, 6);
}

TEST_CASE("contraction schedule: convolution schedules with blocked loops and a tile along y") {
  const std::vector<std::string> schedules = {
      // y blocked by 2 (outside the tile), the tile along x.
      R"J({"output": [{"split": "c", "into": ["co", "ci"], "vectors": 2}, {"split": "x", "into": ["xo", "xi"], "factor": 3},
                      {"split": "y", "into": ["yo", "yi"], "factor": 2},
                      {"reorder": ["ci", "xi", "xo", "yi", "co", "yo", "n"]}, {"vectorize": "ci"}, {"unroll": "ci"}, {"unroll": "xi"}],
           "update": [{"reorder": ["c", "x", "rx", "ry", "rz"]}, {"unroll": "ry"}]})J",
      // The tile along y (3 rows) with x outside it.
      R"J({"output": [{"split": "c", "into": ["co", "ci"], "vectors": 1, "tail": "guard"}, {"split": "y", "into": ["yo", "yi"], "factor": 3},
                      {"reorder": ["ci", "yi", "x", "yo", "n", "co"]}, {"vectorize": "ci"}, {"unroll": "ci"}, {"unroll": "yi"}]})J",
  };
  for (size_t k = 0; k < schedules.size(); ++k)
    for (int64_t h : {1, 4, 5})
      for (int64_t cout : {3, 21}) {
        CAPTURE(k);
        CAPTURE(h);
        CAPTURE(cout);
        checkPlans(withSchedule(kConv, schedules[k]), {{"batch", 2}, {"h", h}, {"w", 7}, {"cout", cout}, {"cin", 2}}, uint64_t(k * 1000 + h * 100 + cout));
      }
}

TEST_CASE("contraction schedule: schedules the builder cannot honour are errors that say where and why") {
  const Target avx512 = targetNamed("avx512"), avx2 = targetNamed("avx2", {"fma"}), sve = targetNamed("sve");
  auto matmul = [&](const std::string& schedule) { return withSchedule(kMatmul, schedule); };
  // Vectorizing a reduction dim (in the output's loops and in the update).
  checkPlanError(matmul(R"({"output": [{"vectorize": "k"}]})"), avx512, "/schedule/output/0/vectorize", "needs a reduction strategy");
  checkPlanError(matmul(R"({"output": [{"vectorize": "j"}], "update": [{"vectorize": "k"}]})"), avx512, "/schedule/update/0/vectorize",
                 "needs a reduction strategy");
  // A tile past the register budget: 8 x 2 vectors on AVX2's 16 registers.
  checkPlanError(matmul(R"({"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 2}, {"split": "i", "into": ["io", "ii"], "factor": 8},
                                       {"reorder": ["ji", "ii", "io", "jo"]}, {"vectorize": "ji"}, {"unroll": "ji"}, {"unroll": "ii"}]})"),
                 avx2, "/schedule/output", "needs 16 accumulators + 2 operand vectors + 1 broadcast = 19 vector registers; the target has 16");
  // A reorder that breaks the dependence: the reduction inside the tile's row loop.
  checkPlanError(matmul(R"({"output": [{"split": "i", "into": ["io", "ii"], "factor": 2}, {"unroll": "ii"}, {"vectorize": "j"},
                                       {"reorder": ["j_vi", "ii", "j", "io"]}], "update": [{"reorder": ["k", "i"]}]})"),
                 avx512, "/schedule/update/0/reorder/1", "a dim of the register tile");
  checkPlanError(matmul(R"({"output": [{"reorder": ["k", "i"]}]})"), avx512, "/schedule/output/0/reorder/0", "is a reduction dim");
  // Unknown dims and loops.
  checkPlanError(matmul(R"({"output": [{"split": "q", "into": ["qo", "qi"], "factor": 2}]})"), avx512, "/schedule/output/0/split",
                 "unknown loop \"q\"; the output's loops here are: i, j");
  checkPlanError(matmul(R"({"output": [{"vectorize": "j"}], "update": [{"unroll": "kk", "factor": 2}]})"), avx512, "/schedule/update/0/unroll",
                 "unknown dim \"kk\"");
  checkPlanError(matmul(R"({"output": [{"split": "i", "into": ["io", "ii"], "factor": 2}, {"split": "i", "into": ["a", "b"], "factor": 2}]})"), avx512,
                 "/schedule/output/1/split", "(dim \"i\" was split)");
  // The tile's loops: inside compute_at, unrolled; compute_at / store_at.
  checkPlanError(matmul(R"({"output": [{"split": "i", "into": ["io", "ii"], "factor": 2}, {"vectorize": "j"}, {"reorder": ["j_vi", "ii", "j", "io"]}],
                            "compute_at": "io"})"),
                 avx512, "/schedule/compute_at", "loop \"j\" is inside compute_at \"io\" but neither vectorized nor unrolled");
  checkPlanError(matmul(R"({"output": [{"split": "i", "into": ["io", "ii"], "factor": 2}, {"unroll": "ii"}, {"vectorize": "j"}]})"), avx512,
                 "/schedule/output/1/unroll", "it runs outside compute_at");
  checkPlanError(matmul(R"({"output": [{"vectorize": "j"}], "store_at": "i"})"), avx512, "/schedule/store_at", "store_at must be compute_at's loop \"j\"");
  checkPlanError(matmul(R"({"output": [{"vectorize": "j"}, {"reorder": ["i", "j_vi"]}]})"), avx512, "/schedule/output/0/vectorize", "must be innermost");
  checkPlanError(matmul(R"({"output": [{"vectorize": "i"}]})"), avx512, "/schedule/output/0/vectorize", "along the output's innermost dim \"j\"");
  // Widths and factors per target.
  checkPlanError(matmul(R"({"output": [{"vectorize": "j", "width": 8}]})"), avx512, "/schedule/output/0/width", "not a multiple of the target's 16 lanes");
  checkPlanError(matmul(R"({"output": [{"vectorize": "j", "width": 16}]})"), sve, "/schedule/output/0/width", "on sve: vectors are scalable");
  checkPlanError(matmul(R"({"output": [{"split": "j", "into": ["jo", "ji"], "factor": 32}, {"vectorize": "ji"}]})"), sve, "/schedule/output/0/factor",
                 "split \"j\" in \"vectors\"");
  checkPlanError(matmul(R"({"output": [{"split": "j", "into": ["jo", "ji"], "factor": 24}, {"vectorize": "ji"}]})"), avx512, "/schedule/output/0/factor",
                 "not a multiple of the vector width (16 lanes)");
  // Tail policies.
  checkPlanError(matmul(R"({"output": [{"split": "i", "into": ["io", "ii"], "factor": 2, "tail": "predicate"}, {"unroll": "ii"}, {"vectorize": "j"},
                                       {"reorder": ["j_vi", "ii", "j", "io"]}]})"),
                 avx512, "/schedule/output/0/tail", "tail predicate masks the lanes of the vectorized loop");
  checkPlanError(matmul(R"({"output": [{"split": "i", "into": ["io", "ii"], "factor": 2, "tail": "round_up"}, {"unroll": "ii"}, {"vectorize": "j"},
                                       {"reorder": ["j_vi", "ii", "j", "io"]}]})"),
                 avx512, "/schedule/output/0/tail", "has the runtime extent \"m\"");
  const std::string accumulate = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"]}],
  "init": "output",
  "output": {"name": "c", "index": ["i", "j"]})J";
  checkPlanError(withSchedule(accumulate, R"({"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 1, "tail": "shift_inwards"}, {"vectorize": "ji"}]})"),
                 avx512, "/schedule/output/0/tail", "would add their sums twice");
  // Packing.
  checkPlanError(withSchedule(kConv, R"({"output": [{"vectorize": "c"}], "pack": ["filter"]})"), avx512, "/schedule/pack/0",
                 "operand \"filter\" cannot be packed: packing needs exactly one reduction dim");
  // An operand packed ahead is named as the spec names it, with the copy the kernel reads.
  const std::string packedAhead = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"], "pack": "ahead"}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  checkPlanError(withSchedule(packedAhead, R"({"pack": ["b"]})"), targetNamed("scalar"), "/schedule/pack/0",
                 "operand \"b\" (packed ahead: \"b_packed\") cannot be packed: the kernel is one lane wide");
  checkPlanError(matmul(R"({"output": [{"split": "j", "into": ["jo", "ji"], "vectors": 1}, {"split": "i", "into": ["io", "ii"], "factor": 2, "tail": "shift_inwards"},
                                       {"reorder": ["ji", "ii", "io", "jo"]}, {"vectorize": "ji"}, {"unroll": "ii"}], "pack": ["b"]})"),
                 avx512, "/schedule/pack", "tail shift_inwards on the tile dim recomputes rows");
}

TEST_CASE("contraction schedule: errors in the schedule's form") {
  using simdgen::testing::errorOf;
  auto check = [](const std::string& schedule, const std::string& pointer, const std::string& part) {
    const SpecError e = errorOf(withSchedule(kMatmul, schedule));
    CHECK_MESSAGE(e.pointer == pointer, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
  };
  check(R"({"update": [{"split": "k", "into": ["ko", "ki"], "factor": 4}]})", "/schedule/update/0/split", "split the output's loops instead");
  check(R"({"output": [{"split": "j", "into": ["jo", "ji"], "factor": 4, "tail": "clamp"}]})", "/schedule/output/0/tail", "allowed: auto, predicate, guard, shift_inwards, round_up");
  check(R"({"output": [{"split": "j", "into": ["jo", "jo"], "factor": 4}]})", "/schedule/output/0/into/1", "need different names");
  check(R"({"output": [{"split": "j", "into": ["jo", "ji"]}]})", "/schedule/output/0/factor", "missing required key \"factor\"");
  check(R"({"output": [{"vectorize": "j", "unroll": "i"}]})", "/schedule/output/0/vectorize", "one directive per object");
  check(R"({"output": [{"reorder": ["i", "i"]}]})", "/schedule/output/0/reorder/1", "listed twice");
  check(R"({"targets": ["avx9"]})", "/schedule/targets/0", "is not one of the spec's targets");
  check(R"([{}, {"targets": ["avx512"]}])", "/schedule/1", "this schedule is never used");
  check(R"({"pack": ["x"]})", "/schedule/pack/0", "unknown operand \"x\"");
}

TEST_CASE("contraction default nest: the vector dim's one-vector tail columns run in taller tiles") {
  // One vector wide, MR rows would be MR accumulators: too few for two FMA pipes of latency 4.
  const KernelSpec runtime = parseSpecText(contractionSpec(kMatmul), "matmul.json");
  for (const std::string name : {"avx512", "avx2", "neon", "sve"}) {
    CAPTURE(name);
    const ir::Plan plan = buildPlan(runtime, targetNamed(name));
    CHECK(has(plan.summary, "one masked partial vector (in tiles of 8 x 1 vectors)"));
  }
  // A static tile dim shorter than 8 rows keeps its MR; the scalar target has no vectors.
  const std::string five = R"J(  "dims": [{"name": "i", "extent": 5}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  CHECK_FALSE(has(buildPlan(parseSpecText(contractionSpec(five), "five.json"), targetNamed("avx512")).summary, "tiles of 8 x 1"));
  CHECK_FALSE(has(buildPlan(runtime, targetNamed("scalar")).summary, "tiles of 8 x 1"));
  // A schedule's tile is kept in its tails too.
  const KernelSpec seed = parseSpecText(readFile(SIMDGEN_SOURCE_DIR "/specs/conv_seed_schedule_f32.json"), "conv_seed_schedule_f32.json");
  CHECK_FALSE(has(buildPlan(seed, targetNamed("avx512")).summary, "tiles of 8 x 1"));
  // Rows in 8-row tail tiles, then 4, 2, 1: 8 + 8 + 4 + 2 + 1 = 23 rows, columns with a partial
  // vector and (at 128 bits) whole single vectors after the 4-vector tiles.
  for (int64_t n : {17, 21, 77}) {
    CAPTURE(n);
    checkPlans(contractionSpec(kMatmul), {{"m", 23}, {"n", n}, {"k", 3}}, uint64_t(n));
  }
}

TEST_CASE("contraction default nest: a static tile dim takes the fewest rows over on 32 registers, the fewest tiles on 16") {
  const auto rows = [](int64_t m) {
    return R"J(  "dims": [{"name": "i", "extent": )J" + std::to_string(m) + R"J(}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  };
  const auto summary = [&](int64_t m, const std::string& target) {
    return buildPlan(parseSpecText(contractionSpec(rows(m)), "rows.json"), targetNamed(target)).summary;
  };
  // 100 rows: 20 tiles of 5 leave none over (the seed's tile on AVX-512 and Arm); on AVX2 a tile
  // holds at most 12 accumulators, and 16 tiles of 6 plus one of 4 read the columns 17 times, not 20.
  CHECK(has(summary(100, "avx512"), "register tile: 5 x 4 vectors"));
  CHECK(has(summary(100, "neon"), "register tile: 5 x 4 vectors"));
  CHECK(has(summary(100, "avx2"), "register tile: 6 x 2 vectors"));
  // 56 rows: 14 tiles of 4 on AVX-512, 9 of 6 and one of 2 on AVX2; 10 rows: two tiles of 5 or
  // of 6 and 4, so the fewer rows over.
  CHECK(has(summary(56, "avx512"), "register tile: 4 x 4 vectors"));
  CHECK(has(summary(56, "avx2"), "register tile: 6 x 2 vectors"));
  CHECK(has(summary(10, "avx2"), "register tile: 5 x 2 vectors"));
  // The scalar target keeps the rows-over rule.
  CHECK(has(summary(100, "scalar"), "register tile: 5 x 2"));
  // Static rows with a tail after the 6-row tiles agree with the definition.
  for (int64_t m : {100, 56, 13}) {
    CAPTURE(m);
    checkPlans(contractionSpec(rows(m)), {{"n", 21}, {"k", 3}}, uint64_t(m));
  }
}

TEST_CASE("contraction default nest: a static vector dim's tile is no wider than its whole vectors") {
  const auto cols = [](int64_t n) {
    return R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": )J" + std::to_string(n) + R"J(}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "b", "index": ["k", "j"]}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  };
  const auto summary = [&](int64_t n, const std::string& target) {
    return buildPlan(parseSpecText(contractionSpec(cols(n)), "cols.json"), targetNamed(target)).summary;
  };
  // 40 floats on AVX-512: a tile of 2 vectors, then the masked 8; one of 3 (48 columns) would never
  // run and leave every column to the one-vector tiles.
  CHECK(has(summary(40, "avx512"), "x 2 vectors of f32x16"));
  CHECK(has(summary(48, "avx512"), "x 3 vectors of f32x16"));
  CHECK(has(summary(100, "avx512"), "x 4 vectors of f32x16"));
  CHECK(has(summary(20, "avx512"), "x 1 vectors of f32x16"));
  CHECK(has(summary(12, "avx2"), "x 1 vectors of f32x8"));
  CHECK(has(summary(40, "avx2"), "x 2 vectors of f32x8"));
  for (int64_t n : {40, 20, 12, 7}) {
    CAPTURE(n);
    checkPlans(contractionSpec(cols(n)), {{"m", 9}, {"k", 3}}, uint64_t(n));
  }
}

TEST_CASE("contraction default nest: the vector dim's tiles go inside the other parallel dims where the operand along it fits in L2") {
  // The printed loop nest's line holding `text` (its order in the nest), or -1.
  auto line = [](const ir::Plan& p, const std::string& text) {
    for (size_t k = 0; k < p.summary.size(); ++k)
      if (p.summary[k].find(text) != std::string::npos) return long(k);
    return -1L;
  };
  auto conv = [](const std::string& cout, const std::string& cin) {
    return R"J(  "dims": [{"name": "n", "extent": 2}, {"name": "y", "extent": 3}, {"name": "x", "extent": 9}, {"name": "c", "extent": )J" + cout +
           R"J(},
           {"name": "ky", "extent": 3, "kind": "reduction"}, {"name": "kx", "extent": 3, "kind": "reduction"}, {"name": "ci", "extent": )J" + cin +
           R"J(, "kind": "reduction"}],
  "operands": [{"name": "w", "index": ["ky", "kx", "ci", "c"]}, {"name": "input", "index": ["n", "y + ky", "x + kx", "ci"]}],
  "init": {"name": "bias", "index": ["c"]},
  "output": {"name": "out", "index": ["n", "y", "x", "c"]})J";
  };
  // 3 x 3 x 16 x 130 floats (73 KiB): for n, for y, then the columns of tiles, then x.
  const std::string fits = contractionSpec(conv("130", "16"));
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) {
    CAPTURE(isa);
    const ir::Plan p = buildPlan(parseSpecText(fits, "fits.json"), targetNamed(isa));
    CHECK(line(p, "    for y") >= 0);
    CHECK(line(p, "    for y") < line(p, "for c: tiles"));
    CHECK(line(p, "for c: tiles") < line(p, "for x: tiles"));
  }
  checkPlans(fits, {}, 41);  // every target and vector length, tails of c (130) and x (9)
  // 3 x 3 x 512 x 256 floats (4.5 MiB), or a runtime extent: the columns of tiles outermost.
  for (const std::string& big : {contractionSpec(conv("256", "512")), contractionSpec(conv("\"cout\"", "16"))}) {
    const ir::Plan p = buildPlan(parseSpecText(big, "big.json"), targetNamed("avx512"));
    CHECK(line(p, "for c: tiles") >= 0);
    CHECK(line(p, "for c: tiles") < line(p, "    for n"));
  }
  // An operand that depends on the batch too (a batched matmul's B): nothing to keep across it.
  const std::string batched = R"J(  "dims": [{"name": "b", "extent": 4}, {"name": "i", "extent": 8}, {"name": "j", "extent": 40}, {"name": "k", "extent": 8, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["b", "i", "k"]}, {"name": "m", "index": ["b", "k", "j"]}],
  "output": {"name": "c", "index": ["b", "i", "j"]})J";
  const ir::Plan p = buildPlan(parseSpecText(contractionSpec(batched), "batched.json"), targetNamed("avx512"));
  CHECK(line(p, "for j: tiles") < line(p, "    for b"));
}

TEST_CASE("contraction with bf16 operands: vdpbf16ps (avx512+bf16) and bfdot (neon+bf16, sve+bf16) on pairs where the panel allows, else widening") {
  auto bf16 = [](const std::string& body, const std::vector<std::string>& names) {
    return parseSpecText(contractionSpec(simdgen::testing::withBf16Operands(body, names)), "bf16.json");
  };
  const std::string dot = "vdpbf16ps (two bf16 products per f32 lane";
  auto ops = [](const ir::Plan& p) {
    std::ostringstream s;
    s << p.print();
    return s.str();
  };
  const ir::Plan pairs = buildPlan(bf16(kMatmul, {"a", "b"}), targetNamed("avx512", {"bf16"}));
  CHECK(has(pairs.summary, dot));
  CHECK(has(pairs.summary, "bf16 pairs: panel row p holds steps 2p and 2p + 1"));
  CHECK(ops(pairs).find("dot_bf16") != std::string::npos);
  // Arm's bfdot (neon+bf16, sve+bf16): the same pairs, rounded to odd.
  for (const char* isa : {"neon", "sve"}) {
    const ir::Plan arm = buildPlan(bf16(kMatmul, {"a", "b"}), targetNamed(isa, {"bf16"}));
    CHECK(has(arm.summary, "bfdot (two bf16 products per f32 lane, the pair summed first, each step rounded to odd"));
    CHECK(ops(arm).find("dot_bf16_odd") != std::string::npos);
  }
  // The same spec without the feature or with one f32 operand: widening and FMAs.
  for (const ir::Plan& p : {buildPlan(bf16(kMatmul, {"a", "b"}), targetNamed("avx512")), buildPlan(bf16(kMatmul, {"b"}), targetNamed("avx512", {"bf16"})),
                            buildPlan(bf16(kMatmul, {"a"}), targetNamed("avx512", {"bf16"}))}) {
    CHECK_FALSE(has(p.summary, dot));
    CHECK(ops(p).find("dot_bf16") == std::string::npos);
    CHECK(ops(p).find("bitcast") != std::string::npos);
  }
  const std::string bt = R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["i", "k"]}, {"name": "bt", "index": ["j", "k"]}],
  "output": {"name": "c", "index": ["i", "j"]})J";
  // B transposed: its pairs are adjacent, packed one u32 at a time (transposedGroupPanel).
  const ir::Plan transposedPairs = buildPlan(bf16(bt, {"a", "bt"}), targetNamed("avx512", {"bf16"}));
  CHECK(has(transposedPairs.summary, dot));
  CHECK(ops(transposedPairs).find("transposed by 16 x 16 tiles of bf16 pairs") != std::string::npos);  // whole columns
  CHECK(ops(transposedPairs).find("transposed, one bf16 pair at a time") != std::string::npos);  // the last, partial one
  // Odd and even reduction lengths, several blocks, partial columns, row tails: the pairs agree with
  // the double reference (checkPlans runs avx512+bf16 among its targets).
  for (int64_t k : {1, 2, 7, 2051})
    checkPlans(contractionSpec(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "dtype": "bf16", "index": ["i", "k"], "strides": ["lda", 1]}, {"name": "b", "dtype": "bf16", "index": ["k", "j"]}],
  "init": "output",
  "output": {"name": "c", "index": ["i", "j"]},
  "epilogue": [{"op": "relu"}])J"), {{"m", 7}, {"n", 71}, {"k", k}}, uint64_t(k));
  // The same with B transposed (blocks of 256 steps: 600 is three).
  for (int64_t k : {1, 2, 7, 600})
    checkPlans(contractionSpec(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "dtype": "bf16", "index": ["i", "k"], "strides": ["lda", 1]}, {"name": "bt", "dtype": "bf16", "index": ["j", "k"], "strides": ["ldbt", 1]}],
  "output": {"name": "c", "index": ["i", "j"]})J"), {{"m", 7}, {"n", 71}, {"k", k}}, uint64_t(k));
}

TEST_CASE("contraction with byte operands: vpdpbusd (u8 x i8, and i8 x i8 and u8 x u8 with an offset, x86 VNNI), usdot (u8 x i8, NEON and SVE i8mm), sdot and udot (NEON dotprod, SVE, mixed signs with an offset) on quads where the panel allows, else widening") {
  auto ints = [](const std::string& a, const std::string& b, bool transposed) {
    std::string body = std::string(R"J(  "dims": [{"name": "i", "extent": "m"}, {"name": "j", "extent": "n"}, {"name": "k", "extent": "k", "kind": "reduction"}],
  "operands": [{"name": "a", "dtype": "@A@", "index": ["i", "k"], "strides": ["lda", 1]}, {"name": "b", "dtype": "@B@", "index": )J") +
                       (transposed ? R"J(["j", "k"]}],)J" : R"J(["k", "j"]}],)J") + R"J(
  "init": "output",
  "output": {"name": "c", "index": ["i", "j"]},
  "epilogue": [{"op": "relu"}])J";
    body.replace(body.find("@A@"), 3, a);
    body.replace(body.find("@B@"), 3, b);
    return contractionSpec(body, "k", "i32");
  };
  const std::string dot = "vpdpbusd (four u8 x i8 products per i32 lane";
  auto ops = [](const ir::Plan& p) {
    std::ostringstream s;
    s << p.print();
    return s.str();
  };
  for (const auto& [a, b] : {std::pair<const char*, const char*>{"u8", "i8"}, {"i8", "u8"}}) {
    CAPTURE(a);
    for (const ir::Plan& quads : {buildPlan(parseSpecText(ints(a, b, false), "q.json"), targetNamed("avx512", {"vnni"})),
                                  buildPlan(parseSpecText(ints(a, b, false), "q.json"), targetNamed("avx2", {"avx_vnni"}))}) {
      CHECK(has(quads.summary, dot));
      CHECK(has(quads.summary, "byte quads: panel row p holds steps 4p..4p + 3"));
      CHECK(ops(quads).find("dot_u8i8") != std::string::npos);
    }
  }
  // i8 x i8 and u8 x u8 through vpdpbusd: the broadcast bytes offset by 128 (to u8, or to i8 with
  // the panel's bytes as the unsigned ones), the panel's column sums taken off.
  for (const auto& [a, sign] : {std::pair<const char*, const char*>{"i8", "each + 128, read unsigned"}, {"u8", "each - 128, read signed"}})
    for (const ir::Plan& offset : {buildPlan(parseSpecText(ints(a, a, false), "q.json"), targetNamed("avx512", {"vnni"})),
                                   buildPlan(parseSpecText(ints(a, a, false), "q.json"), targetNamed("avx2", {"avx_vnni"}))}) {
      CAPTURE(a);
      CHECK(has(offset.summary, "vpdpbusd (four " + std::string(a) + " x " + a + " products per i32 lane"));
      CHECK(has(offset.summary, std::string(a) + " x " + a + ": the broadcast bytes xor 0x80 (" + sign));
      CHECK(ops(offset).find("dot_u8i8") != std::string::npos);
      CHECK(ops(offset).find("panel_sums") != std::string::npos);
    }
  // Without VNNI, or with a 16-bit operand: pairs of i16 through vpmaddwd (every AVX2 and
  // AVX-512 target), the bytes widened to 16 bits while packing; with VNNI for the vector's
  // width, vpdpwssd.
  for (const auto& [p, instruction] :
       {std::pair{buildPlan(parseSpecText(ints("u8", "i8", false), "q.json"), targetNamed("avx512")), "vpmaddwd"},
        std::pair{buildPlan(parseSpecText(ints("u8", "u8", false), "q.json"), targetNamed("avx2", {"fma"})), "vpmaddwd"},
        std::pair{buildPlan(parseSpecText(ints("u8", "i16", false), "q.json"), targetNamed("avx512", {"vnni"})), "vpdpwssd"},
        std::pair{buildPlan(parseSpecText(ints("i16", "i16", false), "q.json"), targetNamed("avx2", {"avx_vnni"})), "vpdpwssd"},
        std::pair{buildPlan(parseSpecText(ints("i16", "i16", true), "q.json"), targetNamed("avx512")), "vpmaddwd"}}) {
    CHECK_FALSE(has(p.summary, dot));
    CHECK(has(p.summary, std::string(instruction) + " (two exact i16 x i16 products per i32 lane"));
    CHECK(ops(p).find("dot_i16i16") != std::string::npos);
  }
  // An operand that does not fit i16 (u16), a transposed byte operand (its pair is not a u32 of
  // it) and every non-x86 target without dot products: widening.
  for (const ir::Plan& p : {buildPlan(parseSpecText(ints("u8", "u16", false), "q.json"), targetNamed("avx512", {"vnni"})),
                            buildPlan(parseSpecText(ints("u8", "i8", true), "q.json"), targetNamed("avx2", {"fma"})),
                            buildPlan(parseSpecText(ints("i16", "i16", false), "q.json"), targetNamed("neon"))})
    CHECK(ops(p).find("dot_") == std::string::npos);
  // NEON with dot products: sdot for i8 x i8, udot for u8 x u8, sdot with an offset for a u8
  // broadcast operand times an i8 panel, udot with an offset for an i8 broadcast operand times a u8
  // panel (mixed signs without usdot).
  for (const auto& [a, b, name] : {std::tuple<const char*, const char*, const char*>{"i8", "i8", "dot_i8i8"}, {"u8", "u8", "dot_u8u8"}}) {
    CAPTURE(a);
    const ir::Plan quads = buildPlan(parseSpecText(ints(a, b, false), "q.json"), targetNamed("neon", {"dotprod"}));
    CHECK(has(quads.summary, std::string(name) == "dot_i8i8" ? "sdot (four i8 x i8 products per i32 lane" : "udot (four u8 x u8 products per i32 lane"));
    CHECK(ops(quads).find(name) != std::string::npos);
  }
  for (const char* isa : {"neon", "sve"})
    for (const auto& [a, b, ins, name] : {std::tuple<const char*, const char*, const char*, const char*>{"u8", "i8", "sdot", "dot_i8i8"}, {"i8", "u8", "udot", "dot_u8u8"}}) {
      CAPTURE(isa);
      CAPTURE(a);
      const ir::Plan offset = buildPlan(parseSpecText(ints(a, b, false), "q.json"), targetNamed(isa, std::string(isa) == "neon" ? std::vector<std::string>{"dotprod"} : std::vector<std::string>{}));
      CHECK(has(offset.summary, std::string(ins) + " (four u8 x i8 products per i32 lane"));
      CHECK(has(offset.summary, std::string(a) + " x " + b + " without usdot: the broadcast bytes xor 0x80 (each " + (std::string(a) == "u8" ? "- 128" : "+ 128")));
      CHECK(ops(offset).find(name) != std::string::npos);
      CHECK(ops(offset).find("panel_sums") != std::string::npos);
    }
  // NEON with i8mm: usdot for u8 x i8 in either order (vpdpbusd's products); one signedness widens.
  for (const auto& [a, b] : {std::pair<const char*, const char*>{"u8", "i8"}, {"i8", "u8"}}) {
    CAPTURE(a);
    const ir::Plan quads = buildPlan(parseSpecText(ints(a, b, false), "q.json"), targetNamed("neon", {"i8mm"}));
    CHECK(has(quads.summary, "usdot (four u8 x i8 products per i32 lane"));
    CHECK(ops(quads).find("dot_u8i8") != std::string::npos);
  }
  CHECK(ops(buildPlan(parseSpecText(ints("i8", "i8", false), "q.json"), targetNamed("neon", {"i8mm"}))).find("dot_") == std::string::npos);
  // SVE: sdot and udot (base SVE) through a panel sized for 2048-bit vectors; u8 x i8 widens.
  for (const char* isa : {"sve", "sve2"})
    for (const auto& [a, name] : {std::pair<const char*, const char*>{"i8", "dot_i8i8"}, {"u8", "dot_u8u8"}}) {
      CAPTURE(isa);
      CAPTURE(a);
      const ir::Plan quads = buildPlan(parseSpecText(ints(a, a, false), "q.json"), targetNamed(isa, {}));
      CHECK(has(quads.summary, std::string(name) == "dot_i8i8" ? "sdot (four i8 x i8 products per i32 lane" : "udot (four u8 x u8 products per i32 lane"));
      CHECK(has(quads.summary, "panel (at 2048-bit vectors"));
      CHECK(ops(quads).find(name) != std::string::npos);
    }
  // B transposed (quads adjacent in memory, packed one u32 at a time) on x86 and NEON, the
  // offset's column sums taken from the packed rows: every remainder of the reduction modulo 4,
  // several blocks (512 steps each), a partial column, against the definition.
  for (const auto& [a, b, target, feature] : {std::tuple<const char*, const char*, const char*, const char*>{"u8", "i8", "avx512", "vnni"},
                                              {"i8", "i8", "avx2", "avx_vnni"}, {"u8", "u8", "avx512", "vnni"}, {"i8", "i8", "neon", "dotprod"},
                                              {"u8", "i8", "neon", "dotprod"}, {"i8", "u8", "neon", "dotprod"}}) {
    CAPTURE(a);
    CAPTURE(target);
    const ir::Plan quads = buildPlan(parseSpecText(ints(a, b, true), "q.json"), targetNamed(target, {feature}));
    CHECK(ops(quads).find("tiles of byte quads") != std::string::npos);  // whole columns, through the network
    CHECK(ops(quads).find("transposed, one byte quad at a time") != std::string::npos);  // the last, partial one
    CHECK(ops(quads).find(std::string(target) != "neon" ? "dot_u8i8" : std::string(b) == "i8" ? "dot_i8i8" : "dot_u8u8") != std::string::npos);
  }
  // (Every pair takes an offset on some target: x86 i8 x i8 and u8 x u8, Arm u8 x i8 and i8 x u8.)
  // 130 steps: two whole 16 x 16 tiles of quads (AVX-512's first column of 64), then 2 steps.
  for (int64_t k : {1, 2, 3, 5, 130, 1100})
    for (const auto& [a, b] : {std::pair<const char*, const char*>{"u8", "i8"}, {"i8", "i8"}, {"i8", "u8"}, {"u8", "u8"}})
      checkIntPlans(ints(a, b, true), {{"m", 5}, {"n", k > 1000 ? 21 : 71}, {"k", k}}, uint64_t(k) + 100);
  // A transposed B on SVE is read by gathers (no scalable transposing panel): never packed as if
  // contiguous along j (the transposed checkIntPlans above run sve+i8mm at every vector length).
  for (const auto& [a, b] : {std::pair<const char*, const char*>{"i8", "i8"}, {"u8", "u8"}, {"u8", "i8"}}) {
    CAPTURE(a);
    CHECK(ops(buildPlan(parseSpecText(ints(a, b, true), "q.json"), targetNamed("sve", {"i8mm"}))).find("dot_") == std::string::npos);
  }
  // SVE with i8mm: usdot for u8 x i8 in either order.
  for (const char* isa : {"sve", "sve2"})
    for (const auto& [a, b] : {std::pair<const char*, const char*>{"u8", "i8"}, {"i8", "u8"}}) {
      CAPTURE(isa);
      CAPTURE(a);
      const ir::Plan quads = buildPlan(parseSpecText(ints(a, b, false), "q.json"), targetNamed(isa, {"i8mm"}));
      CHECK(has(quads.summary, "usdot (four u8 x i8 products per i32 lane"));
      CHECK(ops(quads).find("dot_u8i8") != std::string::npos);
    }
  // Every remainder of the reduction modulo 4, several blocks of the panel (2048 steps), partial
  // columns and row tails: the quads agree exactly with the definition (checkIntPlans runs
  // avx512+vnni, avx2+avx_vnni, neon+dotprod, neon+i8mm, sve and sve+i8mm at 128..2048 bits among its targets).
  for (int64_t k : {1, 2, 3, 4, 6, 7, 2053})
    for (const auto& [a, b] : {std::pair<const char*, const char*>{"u8", "i8"}, {"i8", "u8"}, {"i8", "i8"}, {"u8", "u8"}})
      checkIntPlans(ints(a, b, false), {{"m", 7}, {"n", k > 100 ? 17 : 71}, {"k", k}}, uint64_t(k));
}

TEST_CASE("contraction code: copies of the inner reduction loops in an unrolled step reuse their variable, and a one-row blocked copy needs no block terms") {
  // Unrolling kx (not the innermost reduction) copies the ci loop: each copy starts ci's
  // variable again in the same C++ scope, which must be an assignment, not a second declaration.
  const std::string conv = contractionSpec(kConv + R"J(,
  "schedule": {"update": [{"unroll": "ry", "factor": 3}]})J");
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) {
    CAPTURE(isa);
    const Target target = isa == std::string("avx2") ? targetNamed(isa, {"fma"}) : targetNamed(isa);
    const ir::Plan plan = buildPlan(parseSpecText(conv, "conv.json"), target);
    const std::string code = emit::emitFunction(plan, target, "k").function;
    // The innermost reduction's variable (rx: r6) is declared once per scope: once in the
    // unrolled step (its three copies), once per tail tile.
    CHECK(code.find("r6 = 0;") != std::string::npos);
    std::istringstream lines(code);
    std::string line, previous;
    int depth = 0;
    std::map<int, int> declaredAt;  // depth -> declarations of r6 in the current scope
    for (; std::getline(lines, line);) {
      if (line.find("int64_t r6 = 0;") != std::string::npos) CHECK_MESSAGE(++declaredAt[depth] == 1, "r6 declared twice in one scope:\n" << code);
      for (char ch : line) {
        if (ch == '{') ++depth;
        if (ch == '}') declaredAt.erase(depth--);
      }
    }
  }
  checkPlans(conv, {{"batch", 1}, {"h", 2}, {"w", 7}, {"cout", 19}, {"cin", 3}}, 61);
  // A copy packed ahead whose only dim is the vector dim: its blocks follow one another densely
  // (no other dims between them), so its addresses have no block terms and no block locals.
  const std::string oneRow = contractionSpec(R"J(  "dims": [{"name": "c", "extent": 70}, {"name": "r", "extent": 3, "kind": "reduction"}],
  "operands": [{"name": "a", "index": ["c + r"]}, {"name": "w", "index": ["c"], "pack": "ahead"}],
  "output": {"name": "o", "index": ["c"]})J");
  for (const char* isa : {"avx512", "neon", "sve", "scalar"}) {
    CAPTURE(isa);
    const ir::Plan plan = buildPlan(parseSpecText(oneRow, "one_row.json"), targetNamed(isa));
    CHECK(emit::emitFunction(plan, targetNamed(isa), "k").function.find("_block0") == std::string::npos);
  }
  checkPlans(oneRow, {}, 62);
}
