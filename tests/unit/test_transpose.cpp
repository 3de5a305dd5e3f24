// SPDX-License-Identifier: Apache-2.0
// The transpose family: spec fields and errors, and every plan (each target's, the generic ones
// at 128..2048 bits and SVE's at every vscale, both tails) run by the bounds-checked interpreter
// against the definition output[c * ldo + r] == input[r * lda + c], bytes untouched elsewhere.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "emit/builtin_templates.h"
#include "emit/emitter.h"
#include "plan/family.h"
#include "plan/transpose_networks.h"
#include "sim/interpreter.h"
#include "sim/lane_sim.h"
#include "spec/spec.h"
#include "spec_errors.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

std::string transposeSpec(const std::string& dtype, const std::string& shape, const std::string& extra = "") {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"t\",\n  \"kind\": \"transpose\",\n  \"input\": {\"dtype\": \"" + dtype +
         "\", \"shape\": " + shape + "}" + extra + "\n}\n";
}

using simdgen::testing::errorOf;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void checkError(const std::string& text, const std::string& pointer, const std::string& part) {
  const SpecError e = errorOf(text);
  CHECK(e.pointer == pointer);
  CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
}

// Runs `plan` on a rows x cols matrix with row strides lda / ldo, buffers exactly as long as the
// matrices' spans (the interpreter faults on any access outside), and checks the definition.
void checkRun(const ir::Plan& plan, int64_t rows, int64_t cols, int64_t lda, int64_t ldo, int vscale, uint64_t seed,
              int64_t batch = 1, int64_t sa = 0, int64_t sb = 0) {
  CAPTURE(plan.target);
  CAPTURE(rows);
  CAPTURE(cols);
  CAPTURE(lda);
  CAPTURE(ldo);
  CAPTURE(vscale);
  const size_t size = size_t(bitsOf(plan.tensors[0].dtype) / 8);
  CAPTURE(batch);
  const bool empty = !rows || !cols || !batch;
  const int64_t inSpan = empty ? 0 : (batch - 1) * sa + (rows - 1) * lda + cols;
  const int64_t outSpan = empty ? 0 : (batch - 1) * sb + (cols - 1) * ldo + rows;
  std::vector<unsigned char> in(size_t(inSpan) * size + 1), out(size_t(outSpan) * size + 1, 0xA5);
  std::mt19937_64 rng(seed);
  for (auto& b : in) b = static_cast<unsigned char>(rng());
  // The interpreter carries floats as doubles, which quiets signalling NaNs: give it quiet ones
  // (tests/exec checks that the generated code keeps every bit pattern).
  if (plan.tensors[0].dtype == DType::f32)
    for (size_t e = 0; e + 4 <= in.size(); e += 4) {
      uint32_t v;
      std::memcpy(&v, &in[e], 4);
      if ((v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu)) v |= 0x400000u;
      std::memcpy(&in[e], &v, 4);
    }
  std::map<std::string, int64_t> params;
  for (const ir::Param& p : plan.params) {
    if (p.kind != ir::Param::Kind::extent) continue;
    params[p.name] = p.name == "rows" ? rows : p.name == "cols" ? cols : p.name == "stride" ? lda : p.name == "out_stride" ? ldo
                     : p.name == "batch" ? batch : p.name == "batch_stride" ? sa : sb;
  }
  sim::runPlan(plan, params, {{"input", in.data(), nullptr, size_t(inSpan)}, {"output", nullptr, out.data(), size_t(outSpan)}},
               vscale);
  int64_t bad = 0;
  std::vector<bool> element(size_t(outSpan) + 1, false);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t r = 0; r < rows; ++r) {
        element[size_t(b * sb + c * ldo + r)] = true;
        bad += std::memcmp(&out[size_t(b * sb + c * ldo + r) * size], &in[size_t(b * sa + r * lda + c) * size], size) != 0;
      }
  CHECK(bad == 0);
  for (int64_t e = 0; e < outSpan; ++e)
    if (!element[size_t(e)])
      for (size_t b = 0; b < size; ++b) REQUIRE(out[size_t(e) * size + b] == 0xA5);  // padding untouched
}

}  // namespace

TEST_CASE("transpose spec: fields and defaults") {
  const KernelSpec a = parseSpecText(transposeSpec("f32", R"(["rows", "cols"])"), "t.json");
  CHECK(a.kind == KernelKind::transpose);
  CHECK(a.output == DType::f32);
  CHECK(a.tail == TailPolicy::predicated);
  CHECK_FALSE(a.outputRowStride.has_value());
  const KernelSpec b = parseSpecText(
      R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "i8", "shape": [9, "n"], "row_stride": "ld"},
          "output": {"row_stride": "ld"}, "tail": "scalar"})",
      "t.json");
  REQUIRE(b.outputRowStride.has_value());
  CHECK(b.outputRowStride->name == "ld");
  CHECK(b.tail == TailPolicy::scalar);
  // One parameter for the shared stride: input, n, ld, output.
  const ir::Plan plan = buildPlan(b, makeTarget(TargetRequest{"avx2", {}}));
  std::vector<std::string> names;
  for (const ir::Param& p : plan.params) names.push_back(p.publicName);
  CHECK(names == std::vector<std::string>{"input", "n", "ld", "output"});
}

TEST_CASE("transpose spec: errors say where and what is allowed") {
  checkError(transposeSpec("f32", R"(["n"])"), "/input/shape", "expected an array of 2 or 3 extents ([rows, cols] or [batch, rows, cols])");
  checkError(transposeSpec("f32", R"([1, 2, 3, 4])"), "/input/shape", "expected an array of 2 or 3 extents");
  checkError(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "f32", "shape": ["r", "c"], "batch_stride": 9}})",
             "/input/batch_stride", "applies only to a batched input");
  checkError(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "f32", "shape": ["b", 8, 10], "batch_stride": 79}})",
             "/input/batch_stride", "smaller than one matrix (8 rows 10 elements apart)");
  checkError(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "f32", "shape": ["b", "r", "c"]},
                 "output": {"batch_stride": "r"}})",
             "/output/batch_stride", "same name as a shape extent");
  checkError(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "f32", "shape": ["b", "r", "c"], "row_stride": "s",
                 "batch_stride": "s"}})",
             "/input/batch_stride", "same name as the row_stride");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "op": "add")"), "/op", "does not apply to kind \"transpose\"");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "axis": 0)"), "/axis", "does not apply to kind \"transpose\"");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"dtype": "f64"})"), "/output/dtype", "has the input's dtype (f32)");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"row_stride": "c"})"), "/output/row_stride", "same name as a shape extent");
  checkError(transposeSpec("f32", R"([20, "c"])", R"(, "output": {"row_stride": 19})"), "/output/row_stride", "smaller than the output's row length (rows = 20)");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"row_stride": "t_avx2"}, "targets": ["avx2"])"), "/output/row_stride",
             "clashes with the generated function");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"stride": 2})"), "/output/stride", "allowed keys: row_stride");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"stores": "nontemporal"})"), "/output/stores",
             "allowed: auto, cached, streaming");
  checkError(transposeSpec("f32", R"(["n", "n"])", R"(, "output": {"in_place": true, "stores": "streaming"})"), "/output/stores",
             "does not apply in place");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"dtype": "f32"})"), "/output/dtype",
             "allowed keys: row_stride, batch_stride, in_place, stores");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "tail": "none")"), "/tail", "allowed: predicated, scalar");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"row_stride": 0})"), "/output/row_stride", "");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "strategy": "inner_parallel")"), "/strategy", "allowed: auto, unpack, half_rows");
  checkError(transposeSpec("f32", R"(["r", "c"])", R"(, "output": {"in_place": true})"), "/output/in_place",
             "in_place needs a square matrix: rows (\"r\") and cols (\"c\") are not the same extent");
  checkError(transposeSpec("f32", R"([4, 5])", R"(, "output": {"in_place": true})"), "/output/in_place", "rows (4) and cols (5)");
  checkError(transposeSpec("f32", R"(["n", "n"])", R"(, "output": {"in_place": 1})"), "/output/in_place", "expected true or false, found number 1");
  checkError(transposeSpec("f32", R"(["n", "n"])", R"(, "output": {"in_place": true, "row_stride": "ldo"})"), "/output/row_stride",
             "the output is the input, with its row_stride: remove row_stride");
  checkError(transposeSpec("f32", R"(["n", "n"])", R"(, "output": {"row_stride": "ldo", "in_place": true})"), "/output/row_stride",
             "remove row_stride");
  checkError(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "f32", "shape": ["n", "n", "c"]}})", "/input/shape/1",
             "already used by /input/shape/0");
  CHECK(parseSpecText(transposeSpec("f32", R"(["n", "n"])", R"(, "output": {"in_place": true})"), "t.json").inPlace);
  CHECK_FALSE(parseSpecText(transposeSpec("f32", R"(["n", "n"])"), "t.json").inPlace);
  CHECK(parseSpecText(transposeSpec("f32", R"(["r", "c"])", R"(, "strategy": "half_rows")"), "t.json").transposeStrategy ==
        TransposeStrategy::half_rows);
  CHECK(parseSpecText(transposeSpec("f32", R"(["r", "c"])"), "t.json").transposeStrategy == TransposeStrategy::automatic);
}

TEST_CASE("transpose plans: the interpreter agrees with the definition on every target and length, both tails") {
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{0, 5}, {5, 0}, {1, 1}, {1, 17}, {17, 1}, {3, 5},
                                                           {16, 16}, {15, 17}, {17, 33}, {33, 20}, {64, 65}};
  uint64_t seed = 1;
  for (const char* dtype : {"u8", "i16", "f32", "u64"})
    for (const char* tail : {"predicated", "scalar"}) {
      const KernelSpec spec = parseSpecText(std::string(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": ")") +
                                                dtype + R"(", "shape": ["rows", "cols"], "row_stride": "lda"},
                                                "output": {"row_stride": "ldo"}, "tail": ")" + tail + "\"}",
                                            "t.json");
      const std::string dtypeName = dtype, tailName = tail;
      CAPTURE(dtypeName);
      CAPTURE(tailName);
      std::vector<std::pair<Target, std::vector<int>>> targets;
      for (int bits : {128, 256, 512, 1024, 2048}) targets.push_back({makeGenericTarget(bits), {1}});
      for (const char* isa : {"scalar", "avx2", "avx512", "neon"}) targets.push_back({makeTarget(TargetRequest{isa, {}}), {1}});
      targets.push_back({makeTarget(TargetRequest{"sve", {}}), {1, 2, 3, 4, 8, 16}});
      for (const auto& [target, vscales] : targets) {
        const ir::Plan plan = buildPlan(spec, target);
        for (int vscale : vscales)
          for (const auto& [rows, cols] : shapes)
            for (int64_t pad : {0, 3}) checkRun(plan, rows, cols, cols + pad, rows + (pad ? pad + 2 : 0), vscale, seed++);
      }
    }
}

TEST_CASE("transpose plans: bytes on AVX-512 in 64 x 64 tiles through a scratch tile, the rest in 16 x 16 tiles") {
  // Whole 64-tiles, the columns past them, the rows past them, blocks of 4 x 4 tiles and their
  // partial last blocks, with padded strides and a batch: every byte once, nothing else written.
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{64, 64}, {65, 64}, {64, 127}, {63, 300}, {130, 200}, {320, 257}, {257, 70}};
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}});
  uint64_t seed = 11;
  for (const char* tail : {"predicated", "scalar"}) {
    const std::string tailName = tail;
    CAPTURE(tailName);
    const ir::Plan plan = buildPlan(parseSpecText(transposeSpec("u8", R"(["rows", "cols"], "row_stride": "lda")",
                                                                R"(, "output": {"row_stride": "ldo"}, "tail": ")" + tailName + "\""),
                                                  "t.json"),
                                    avx512);
    CHECK(contains(plan.print(), "round_down(rows, 64)"));
    CHECK(contains(plan.print(), "tile_buf"));
    for (const auto& [rows, cols] : shapes)
      for (int64_t pad : {0, 5}) checkRun(plan, rows, cols, cols + pad, rows + pad, 1, seed++);
  }
  // Streamed at every size: pass 2's lines through non-temporal stores where the output's rows are
  // 64-byte aligned (the interpreter aligns element 0: ldo a multiple of 64), cached elsewhere.
  const ir::Plan streamed = buildPlan(parseSpecText(transposeSpec("u8", R"(["rows", "cols"], "row_stride": "lda")",
                                                                  R"(, "output": {"row_stride": "ldo", "stores": "streaming"})"),
                                                    "t.json"),
                                      avx512);
  CHECK(contains(streamed.print(), "stream"));
  for (const auto& [rows, cols] : shapes)
    for (int64_t pad : {0, 5}) checkRun(streamed, rows, cols, cols + pad, rows + (rows % 64 ? 64 - rows % 64 : 0) + pad, 1, seed++);
  const ir::Plan batched = buildPlan(parseSpecText(transposeSpec("i8", R"([3, "rows", "cols"])"), "t.json"), avx512);
  checkRun(batched, 70, 130, 130, 70, 1, seed++, 3, 70 * 130, 130 * 70);
  // The networks: both passes together move every element of a 64 x 64 byte and a 32 x 32 16-bit
  // tile to its place (16-bit elements keep 16 x 16 tiles, but the network is general).
  for (DType t : {DType::u8, DType::i16}) {
    const TransposeNetwork net = lineTileComposite(lineTileX86(t));
    const sim::TransposeProof proof = sim::proveTranspose(net.body, net.rows, net.cols);
    CHECK_MESSAGE(proof.ok, proof.message);
  }
  CHECK_THROWS(lineTileX86(DType::f32));
  // round_down takes a positive multiple and no other kind of let.
  ir::Plan p;
  p.body = {ir::letRoundDown("x", ir::Index::constant(7), -64)};
  CHECK_FALSE(p.verify().empty());
  // AVX2 keeps its 16 x 16 byte tiles.
  CHECK_FALSE(contains(buildPlan(parseSpecText(transposeSpec("u8", R"(["rows", "cols"])"), "t.json"), makeTarget(TargetRequest{"avx2", {}})).print(),
                       "tile_buf"));
}

TEST_CASE("transpose plans: strategy half_rows (inputs joined from half rows by the loads) on x86, every dtype, both tails") {
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{1, 17}, {16, 16}, {15, 17}, {17, 33}, {33, 20}, {64, 65}};
  uint64_t seed = 5;
  for (const char* dtype : {"u8", "i16", "f32", "u64"})
    for (const char* tail : {"predicated", "scalar"}) {
      const KernelSpec spec = parseSpecText(std::string(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": ")") +
                                                dtype + R"(", "shape": ["rows", "cols"], "row_stride": "lda"}, "strategy": "half_rows",
                                                "output": {"row_stride": "ldo"}, "tail": ")" + tail + "\"}",
                                            "t.json");
      const std::string dtypeName = dtype;
      CAPTURE(dtypeName);
      for (const char* isa : {"avx2", "avx512", "neon"}) {
        const ir::Plan plan = buildPlan(spec, makeTarget(TargetRequest{isa, {}}));
        // Tiles of 256- or 512-bit rows load half rows; 128-bit rows (bytes, NEON) have no stage to save.
        const bool halves = std::string(isa) != "neon" && !(dtypeName == "u8") && !(dtypeName == "i16" && std::string(isa) == "avx2");
        const bool loadsHalves = plan.print().find("load_halves") != std::string::npos;
        CHECK(loadsHalves == halves);
        for (const auto& [rows, cols] : shapes)
          for (int64_t pad : {0, 3}) checkRun(plan, rows, cols, cols + pad, rows + (pad ? pad + 2 : 0), 1, seed++);
      }
    }
}

// Runs the in-place `plan` on one n x n matrix (row stride ld, `batch` of them sa apart) in a
// buffer exactly as long: the transpose must replace it, padding untouched.
void checkInPlace(const ir::Plan& plan, int64_t n, int64_t ld, int vscale, uint64_t seed, int64_t batch = 1, int64_t sa = 0) {
  CAPTURE(plan.target);
  CAPTURE(n);
  CAPTURE(ld);
  CAPTURE(vscale);
  CAPTURE(batch);
  const size_t size = size_t(bitsOf(plan.tensors[0].dtype) / 8);
  const int64_t span = !n || !batch ? 0 : (batch - 1) * sa + (n - 1) * ld + n;
  std::vector<unsigned char> data(size_t(span) * size + 1);
  std::mt19937_64 rng(seed);
  for (auto& b : data) b = static_cast<unsigned char>(rng() | 1);  // no signalling NaN becomes quiet: see checkRun
  if (plan.tensors[0].dtype == DType::f32)
    for (size_t e = 0; e + 4 <= data.size(); e += 4) data[e + 2] |= 0x40;
  const std::vector<unsigned char> before = data;
  std::map<std::string, int64_t> params;
  for (const ir::Param& p : plan.params)
    if (p.kind == ir::Param::Kind::extent) params[p.name] = p.name == "rows" ? n : p.name == "stride" ? ld : p.name == "batch" ? batch : sa;
  sim::runPlan(plan, params, {{"input", data.data(), nullptr, size_t(span)}, {"output", nullptr, data.data(), size_t(span)}}, vscale);
  int64_t bad = 0;
  std::vector<bool> element(size_t(span) + 1, false);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t c = 0; c < n; ++c)
      for (int64_t r = 0; r < n; ++r) {
        element[size_t(b * sa + c * ld + r)] = true;
        bad += std::memcmp(&data[size_t(b * sa + c * ld + r) * size], &before[size_t(b * sa + r * ld + c) * size], size) != 0;
      }
  CHECK(bad == 0);
  for (int64_t e = 0; e < span; ++e)
    if (!element[size_t(e)]) REQUIRE(std::memcmp(&data[size_t(e) * size], &before[size_t(e) * size], size) == 0);
}

TEST_CASE("transpose plans in place: square matrices replaced by their transposes on every target and length") {
  uint64_t seed = 11;
  for (const char* dtype : {"u8", "i16", "f32", "u64"}) {
    const KernelSpec spec = parseSpecText(std::string(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": ")") + dtype +
                                              R"(", "shape": ["n", "n"], "row_stride": "ld"}, "output": {"in_place": true}})",
                                          "t.json");
    const std::string dtypeName = dtype;
    CAPTURE(dtypeName);
    std::vector<std::pair<Target, std::vector<int>>> targets;
    for (int bits : {128, 256, 512}) targets.push_back({makeGenericTarget(bits), {1}});
    for (const char* isa : {"scalar", "avx2", "avx512", "neon"}) targets.push_back({makeTarget(TargetRequest{isa, {}}), {1}});
    targets.push_back({makeTarget(TargetRequest{"sve", {}}), {1, 2, 3, 4, 8}});
    for (const auto& [target, vscales] : targets) {
      const ir::Plan plan = buildPlan(spec, target);
      for (int vscale : vscales)
        for (int64_t n : {0, 1, 2, 7, 8, 15, 16, 17, 33, 40})
          for (int64_t pad : {0, 3}) {
            checkInPlace(plan, n, n + pad, vscale, seed++);
            checkRun(plan, n, n, n + pad, n + pad, vscale, seed++);  // separate output memory works too
          }
    }
  }
  // Batched, each matrix in place at its batch stride; static square.
  const KernelSpec batched = parseSpecText(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "f64",
      "shape": ["b", "n", "n"], "row_stride": "ld", "batch_stride": "sa"}, "output": {"in_place": true}})", "t.json");
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"})
    for (int64_t batch : {0, 1, 3}) checkInPlace(buildPlan(batched, makeTarget(TargetRequest{isa, {}})), 19, 21, 2, seed++, batch, 19 * 21 + 4);
  const KernelSpec fixed = parseSpecText(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": "i32", "shape": [37, 37]},
      "output": {"in_place": true}})", "t.json");
  for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) checkInPlace(buildPlan(fixed, makeTarget(TargetRequest{isa, {}})), 37, 37, 1, seed++);
}

TEST_CASE("transpose plans: batches, each matrix at its batch stride") {
  for (const char* dtype : {"u8", "f64"}) {
    const KernelSpec spec = parseSpecText(std::string(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": ")") + dtype +
                                              R"(", "shape": ["n", "rows", "cols"], "row_stride": "lda", "batch_stride": "sa"},
                                              "output": {"row_stride": "ldo", "batch_stride": "sb"}})",
                                          "t.json");
    uint64_t seed = 7;
    for (const char* isa : {"avx512", "avx2", "neon", "sve", "scalar"}) {
      const ir::Plan plan = buildPlan(spec, makeTarget(TargetRequest{isa, {}}));
      for (int64_t batch : {0, 1, 3})
        for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{5, 7}, {17, 16}, {16, 33}})
          checkRun(plan, rows, cols, cols + 1, rows + 2, 2, seed++, batch, rows * (cols + 1) + 5, cols * (rows + 2) + 3);
    }
  }
  // Default batch strides: the matrices packed one after another.
  const KernelSpec packed = parseSpecText(transposeSpec("i32", R"([3, "rows", "cols"])"), "t.json");
  const ir::Plan plan = buildPlan(packed, makeTarget(TargetRequest{"avx512", {}}));
  checkRun(plan, 18, 20, 20, 18, 1, 99, 3, 18 * 20, 20 * 18);
}

TEST_CASE("transpose plans: streaming stores on x86 where every tile row of the output is aligned, the caches elsewhere") {
  // The interpreter places element 0 of each tensor on a vector boundary and refuses a streaming
  // store to a misaligned element: strides that misalign a tile row must take the cached nest.
  uint64_t seed = 11;
  for (const char* dtype : {"u8", "i16", "f32", "u64"})
    for (const char* tail : {"predicated", "scalar"}) {
      const KernelSpec spec = parseSpecText(std::string(R"({"simdgen": 1, "name": "t", "kind": "transpose", "input": {"dtype": ")") +
                                                dtype + R"(", "shape": ["n", "rows", "cols"], "row_stride": "lda", "batch_stride": "sa"},
                                                "output": {"row_stride": "ldo", "batch_stride": "sb", "stores": "streaming"}, "tail": ")" +
                                                tail + "\"}",
                                            "t.json");
      CHECK(spec.outputStores == OutputStores::streaming);
      for (const char* isa : {"avx512", "avx2"}) {
        const ir::Plan plan = buildPlan(spec, makeTarget(TargetRequest{isa, {}}));
        CAPTURE(plan.target);
        REQUIRE(plan.print().find("store_streaming") != std::string::npos);
        REQUIRE(plan.print().find("fence") != std::string::npos);
        for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{1, 9}, {16, 16}, {33, 17}, {64, 70}, {70, 64}})
          for (int64_t ldoPad : {0, 1, 64})  // 64 keeps rows aligned when rows is a multiple of 64
            for (int64_t sbPad : {0, 3}) {
              const int64_t ldo = rows + ldoPad;
              checkRun(plan, rows, cols, cols + 2, ldo, 1, seed++, 2, rows * (cols + 2), cols * ldo + sbPad);
            }
      }
      // Arm has no streaming variant here: the plans store through the caches.
      for (const char* isa : {"neon", "sve"})
        CHECK(buildPlan(spec, makeTarget(TargetRequest{isa, {}})).print().find("store_streaming") == std::string::npos);
    }
  // auto: only outputs of 2 MiB or more stream; a static output smaller than that has no streaming nest.
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}});
  auto streams = [&](const std::string& shape, const std::string& extra) {
    return buildPlan(parseSpecText(transposeSpec("f32", shape, extra), "t.json"), avx512).print().find("store_streaming") != std::string::npos;
  };
  CHECK(streams(R"(["r", "c"])", ""));
  CHECK(streams(R"([1024, 512])", ""));           // 2 MiB
  CHECK_FALSE(streams(R"([1024, 511])", ""));     // just under
  CHECK_FALSE(streams(R"(["r", "c"])", R"(, "output": {"stores": "cached"})"));
  CHECK_FALSE(streams(R"(["r", "c"])", R"(, "output": {"row_stride": 1001})"));  // 4004-byte rows: never 64-byte aligned
  CHECK(streams(R"([64, 64])", R"(, "output": {"stores": "streaming"})"));
  CHECK_FALSE(streams(R"(["n", "n"])", R"(, "output": {"in_place": true})"));
  // auto streams only tiles whose rows are whole 64-byte lines: 16-bit 16 x 16 tiles of 32-byte
  // rows on AVX-512 stay cached, and so does every AVX2 tile (at most 32-byte rows), while the
  // same specs with "streaming" stream on both.
  const Target avx2 = makeTarget(TargetRequest{"avx2", {}});
  for (const char* dtype : {"u8", "i16", "f32", "u64"}) {
    CAPTURE(dtype);
    const KernelSpec spec = parseSpecText(transposeSpec(dtype, R"(["r", "c"])"), "t.json");
    CHECK(buildPlan(spec, avx2).print().find("store_streaming") == std::string::npos);
    const KernelSpec forced = parseSpecText(transposeSpec(dtype, R"(["r", "c"])", R"(, "output": {"stores": "streaming"})"), "t.json");
    CHECK(buildPlan(forced, avx2).print().find("store_streaming") != std::string::npos);
  }
  const KernelSpec i16 = parseSpecText(transposeSpec("i16", R"(["r", "c"])"), "t.json");
  CHECK(buildPlan(i16, avx512).print().find("store_streaming") == std::string::npos);
  CHECK(streams(R"(["r", "c"])", ""));  // f32 16 x 16 on AVX-512: whole lines
  const KernelSpec strided = parseSpecText(R"({"simdgen": 1, "name": "t", "kind": "transpose",
      "input": {"dtype": "f32", "shape": ["rows", "cols"], "row_stride": "lda"}, "output": {"row_stride": "ldo"}})",
                                           "t.json");
  const ir::Plan big = buildPlan(strided, avx512);
  checkRun(big, 1024, 1030, 1030, 1024, 1, 5);  // 4 MiB, aligned: the streaming nest with its edge tiles
  checkRun(big, 1030, 1024, 1024, 1031, 1, 6);  // 4 MiB, rows 4124 bytes apart: the cached nest
}

TEST_CASE("transpose plans: streamed whole-line tiles take their block shape from the CPU's vendor") {
  // AMD: 512 rows x 1 KiB; others: 64 rows x 8 KiB (docs/design.md). The simplifier must not
  // fold the choice, even where every extent is static.
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}});
  auto printed = [&](const std::string& dtype, const std::string& shape) {
    return buildPlan(parseSpecText(transposeSpec(dtype, shape), "t.json"), avx512).print();
  };
  const std::string f32 = printed("f32", R"(["r", "c"])"), u64 = printed("u64", R"(["r", "c"])"), still = printed("f32", "[2048, 2048]");
  for (const std::string* p : {&f32, &still}) {
    CHECK(contains(*p, "let block_rows_nt = cpu_is_amd() ? 512 : 64"));
    CHECK(contains(*p, "let block_cols_nt = cpu_is_amd() ? 256 : 2048"));
  }
  CHECK(contains(u64, "let block_cols_nt = cpu_is_amd() ? 128 : 1024"));
  // Tiles of partial lines (u16 on AVX2) keep one constant shape.
  CHECK_FALSE(contains(buildPlan(parseSpecText(transposeSpec("i16", R"(["r", "c"])"), "t.json"), makeTarget(TargetRequest{"avx2", {}})).print(),
                       "block_rows_nt = cpu_is_amd()"));
  // Traits the lowerings do not test for are refused.
  ir::Plan p;
  p.body = {ir::letByCpu("x", "is_intel", ir::Index::constant(1), ir::Index::constant(2))};
  REQUIRE_FALSE(p.verify().empty());
  CHECK(contains(p.verify().front(), "expected is_amd or splits_512"));
}

TEST_CASE("transpose plans: static 512-bit tiles that fit in L1 yield to the 256-bit variant on CPUs that split 512-bit operations") {
  // docs/design.md: Zen 4 runs such transposes faster through AVX2's network (store- and
  // shuffle-bound in L1); the dispatcher asks simdgen_cpu_splits_512() before the 512-bit variant.
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}});
  auto yields = [&](const std::string& dtype, const std::string& shape, const std::string& extra = "", const Target* t = nullptr) {
    return buildPlan(parseSpecText(transposeSpec(dtype, shape, extra), "t.json"), t ? *t : avx512).yieldsOnSplit512;
  };
  CHECK(yields("f32", "[16, 16]"));
  CHECK(yields("f64", "[37, 70]"));
  CHECK(yields("f32", "[64, 128]"));                // 32 KiB: the limit
  CHECK_FALSE(yields("f32", "[64, 129]"));          // one column more
  CHECK(yields("i32", "[2, 16, 16]"));              // a static batch counts whole
  CHECK_FALSE(yields("i32", "[5, 64, 32]"));        // 40 KiB
  CHECK_FALSE(yields("f32", R"(["r", "c"])"));      // runtime shapes keep 512 bits
  CHECK_FALSE(yields("u16", "[16, 16]"));           // 256-bit tiles on AVX-512 too: nothing to gain
  CHECK_FALSE(yields("f32", "[16, 16]", R"(, "targets": ["avx512", "scalar"])"));  // no 256-bit variant to take
  const Target avx2 = makeTarget(TargetRequest{"avx2", {}});
  CHECK_FALSE(yields("f32", "[16, 16]", "", &avx2));
  // The emitted dispatcher asks before the 512-bit variant only.
  const auto kernel = emit::generate(parseSpecText(transposeSpec("f32", "[16, 16]", R"(, "targets": ["avx512", "avx2", "scalar"])"), "t.json"),
                                     emit::builtinTemplates(), "t.json");
  CHECK(contains(kernel.source, "__builtin_cpu_supports(\"fma\") && !simdgen_cpu_splits_512())"));
  CHECK(contains(kernel.source, "if (__builtin_cpu_supports(\"avx2\")) return"));
  CHECK(contains(kernel.source, "return __builtin_cpu_is(\"amdfam19h\");"));
}

TEST_CASE("transpose plans: outputs stream from 2 MiB, from 6 MiB on AMD CPUs unless the rows alias in L1") {
  // docs/design.md: on Zen 4 a cached 1008 x 1008 f32 transpose ran 0.73 of memcpy, streamed 0.57.
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}});
  auto printed = [&](const std::string& dtype, const std::string& shape, const std::string& extra = "") {
    return buildPlan(parseSpecText(transposeSpec(dtype, shape, extra), "t.json"), avx512).print();
  };
  const std::string f32 = printed("f32", R"(["r", "c"])");
  CHECK(contains(f32, "let out_stride_aliased = round_down(rows, 512)"));  // the output's stride is its rows here
  CHECK(contains(f32, "let out_rows_unaliased = min(rows - out_stride_aliased, 1)"));
  CHECK(contains(f32, "let stream_later = cpu_is_amd() ? out_rows_unaliased : 0"));
  CHECK(contains(f32, ">= 1048576 * stream_later + 524288"));  // 2 MiB + 4 MiB more on AMD, in f32 elements
  CHECK(contains(f32, "< 1048576 * stream_later + 524288"));
  CHECK(contains(printed("u8", R"(["r", "c"])"), ">= 4194304 * stream_later + 2097152"));
  // Streaming asked for: any size, on every CPU.
  const std::string always = printed("f32", R"(["r", "c"])", R"(, "output": {"stores": "streaming"})");
  CHECK_FALSE(contains(always, "stream_later"));
  CHECK(contains(always, ">= 1"));
}

TEST_CASE("transpose plans: in place through 512-bit tiles, CPUs that split 512-bit operations take half-width tiles unless rows are 2048 bytes apart") {
  // docs/design.md: on Zen 4 a pair of 16 x 16 f32 tiles is bound by its shuffles and stores at
  // every size; 8 x 8 tiles alias in L1 when the stride is a multiple of 2048 bytes.
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}});
  auto plan = [&](const std::string& dtype, const std::string& shape, const Target& t) {
    return buildPlan(parseSpecText(transposeSpec(dtype, shape, R"(, "output": {"in_place": true})"), "t.json"), t).print();
  };
  const std::string f32 = plan("f32", R"(["n", "n"])", avx512);
  CHECK(contains(f32, "let stride_aliased = round_down(rows, 512)"));  // the stride is the extent here
  CHECK(contains(f32, "let half_width = cpu_splits_512() ? rows - stride_aliased : 0"));
  CHECK(contains(f32, "if half_width != 0"));
  CHECK(contains(f32, "tiles of 16 x 16"));
  CHECK(contains(f32, "tiles of 8 x 8"));
  CHECK(contains(plan("f64", R"(["n", "n"])", avx512), "round_down(rows, 256)"));
  CHECK(contains(plan("f32", "[96, 96]", avx512), "cpu_splits_512() ? kCols - stride_aliased : 0"));
  CHECK_FALSE(contains(plan("f32", "[512, 512]", avx512), "cpu_splits_512"));  // a static stride that aliases
  CHECK_FALSE(contains(plan("u16", R"(["n", "n"])", avx512), "cpu_splits_512"));  // 256-bit tiles: nothing split
  CHECK_FALSE(contains(plan("f32", R"(["n", "n"])", makeTarget(TargetRequest{"avx2", {}})), "cpu_splits_512"));
  // The emitted kernel asks the CPU, whose answer a definition fixes (the exec tests force both).
  const auto kernel = emit::generate(parseSpecText(transposeSpec("f32", R"(["n", "n"])", R"(, "output": {"in_place": true}, "targets": ["avx512", "scalar"])"), "t.json"),
                                     emit::builtinTemplates(), "t.json");
  CHECK(contains(kernel.source, "int64_t half_width = simdgen_cpu_splits_512() ? "));
  CHECK(contains(kernel.source, "#if defined(SIMDGEN_ASSUME_SPLIT_512)"));
}

TEST_CASE("transpose plans: x86 matrices of at most half a tile's rows and columns use the half-width tile") {
  const Target avx512 = makeTarget(TargetRequest{"avx512", {}}), avx2 = makeTarget(TargetRequest{"avx2", {}});
  auto plan = [](const std::string& dtype, const std::string& shape, const Target& t) {
    return buildPlan(parseSpecText(transposeSpec(dtype, shape), "t.json"), t).print();
  };
  const std::string runtime = plan("f32", R"(["r", "c"])", avx512);
  CHECK(runtime.find("let longer_side = max(rows, cols)") != std::string::npos);
  CHECK(runtime.find("if longer_side <= 8") != std::string::npos);
  CHECK(runtime.find("tiles of 8 x 8") != std::string::npos);
  CHECK(plan("f32", R"(["r", "c"])", avx2).find("if longer_side <= 4") != std::string::npos);
  CHECK(plan("f32", "[8, 7]", avx512).find("f32x16") == std::string::npos);  // static and small: only the small nest remains
  CHECK(plan("f32", "[16, 3]", avx512).find("longer_side") == std::string::npos);       // static and larger: no small nest
  CHECK(plan("u8", R"(["r", "c"])", avx512).find("longer_side") == std::string::npos);  // 8 bytes: below one 128-bit vector
  CHECK(plan("f32", R"(["r", "c"])", makeTarget(TargetRequest{"neon", {}})).find("longer_side") == std::string::npos);
}

TEST_CASE("transpose plans: SVE branches on the vector length to a zip network of VL / w rows, gathers otherwise") {
  for (const auto& [dtype, lengths] : std::vector<std::pair<std::string, std::vector<int>>>{
           {"u8", {1}}, {"i16", {1, 2}}, {"f32", {1, 2, 4}}, {"f64", {1, 2, 4, 8}}}) {
    CAPTURE(dtype);
    const KernelSpec spec = parseSpecText(transposeSpec(dtype, R"(["r", "c"])"), "t.json");
    const std::string printed = buildPlan(spec, makeTarget(TargetRequest{"sve", {}})).print();
    for (int vscale : lengths) {
      const int n = 128 / int(bitsOf(spec.input)) * vscale;
      CHECK(printed.find("if vscale == " + std::to_string(vscale) + "   # " + std::to_string(128 * vscale) + "-bit vectors: " +
                         std::to_string(n) + " x " + std::to_string(n) + " tiles") != std::string::npos);
    }
    CHECK(printed.find("if vscale == " + std::to_string(lengths.back() * 2)) == std::string::npos);
    CHECK(printed.find("gather_rows") != std::string::npos);
  }
}

TEST_CASE("transpose plans: the networks are proven and their lane tables printed") {
  const KernelSpec spec = parseSpecText(transposeSpec("f32", "[16, 16]"), "t.json");
  const std::string printed = buildPlan(spec, makeTarget(TargetRequest{"avx512", {}})).print();
  CHECK(printed.find("0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240") != std::string::npos);  // col0
  CHECK(printed.find("64-shuffle network") != std::string::npos);
}
