// SPDX-License-Identifier: Apache-2.0
// Named shuffles against the Intel / Arm definitions, the symbolic lane simulator, and the
// transpose networks (seed 004's AVX-512 16x16, AVX2 8x8, the Arm zip network) proven by it.
// Expected lane maps are written out by hand from the instruction definitions.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "ir/shuffle.h"
#include "plan/transpose_networks.h"
#include "sim/lane_sim.h"

using namespace simdgen;
namespace sh = ir::shuffles;
using Map = std::vector<int>;

namespace {

std::string spaced(const std::vector<int>& tags) {
  std::string s;
  for (size_t i = 0; i < tags.size(); ++i) s += (i ? " " : "") + std::to_string(tags[i]);
  return s;
}

// The lane table row of `var` in a proof.
std::string stageText(const sim::TransposeProof& p, const std::string& var) {
  for (const auto& s : p.stages)
    if (s.var == var) return s.text();
  return "<no stage " + var + ">";
}

int shuffleCount(const ir::Block& b) {
  return int(std::count_if(b.begin(), b.end(), [](const ir::Stmt& s) {
    return s.kind == ir::Stmt::Kind::Op && s.op == ir::OpKind::Shuffle;
  }));
}

int countOf(const ir::Block& b, const std::string& shuffleText) {
  return int(std::count_if(b.begin(), b.end(), [&](const ir::Stmt& s) {
    return s.kind == ir::Stmt::Kind::Op && s.shuffle.str() == shuffleText;
  }));
}

sim::TransposeProof prove(const TransposeNetwork& n, int vscale = 1) {
  return sim::proveTranspose(n.body, n.rows, n.cols, vscale);
}

ir::Stmt& statementDefining(ir::Block& b, const std::string& var) {
  for (auto& s : b)
    if (s.kind == ir::Stmt::Kind::Op && s.dst == var) return s;
  throw std::logic_error("no statement defines " + var);
}

}  // namespace

TEST_CASE("x86 unpack lane maps interleave within 128-bit segments") {
  // _mm512_unpacklo/hi_epi32
  CHECK(sh::unpackLo(32).laneMap(16, 32) == Map{0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29});
  CHECK(sh::unpackHi(32).laneMap(16, 32) == Map{2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31});
  // _mm256_unpacklo/hi_ps
  CHECK(sh::unpackLo(32).laneMap(8, 32) == Map{0, 8, 1, 9, 4, 12, 5, 13});
  CHECK(sh::unpackHi(32).laneMap(8, 32) == Map{2, 10, 3, 11, 6, 14, 7, 15});
  // _mm512_unpacklo/hi_epi64 on 32-bit lanes: 64-bit units move as pairs of lanes
  CHECK(sh::unpackLo(64).laneMap(16, 32) == Map{0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29});
  CHECK(sh::unpackHi(64).laneMap(16, 32) == Map{2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31});
  // _mm512_unpacklo/hi_pd
  CHECK(sh::unpackLo(64).laneMap(8, 64) == Map{0, 8, 2, 10, 4, 12, 6, 14});
  CHECK(sh::unpackHi(64).laneMap(8, 64) == Map{1, 9, 3, 11, 5, 13, 7, 15});
  // _mm_unpacklo_epi16
  CHECK(sh::unpackLo(16).laneMap(8, 16) == Map{0, 8, 1, 9, 2, 10, 3, 11});
  CHECK(sh::unpackLo(0).laneMap(4, 32) == Map{0, 4, 1, 5});  // 0 = the element width
}

TEST_CASE("shuffle_ps picks two units of a then two of b per 128-bit segment") {
  CHECK(sh::shufflePs(0x44).laneMap(8, 32) == Map{0, 1, 8, 9, 4, 5, 12, 13});
  CHECK(sh::shufflePs(0xEE).laneMap(8, 32) == Map{2, 3, 10, 11, 6, 7, 14, 15});
  CHECK(sh::shufflePs(0x88).laneMap(8, 32) == Map{0, 2, 8, 10, 4, 6, 12, 14});
  CHECK(sh::shufflePs(0xDD).laneMap(4, 32) == Map{1, 3, 5, 7});
  CHECK(sh::shufflePs(0x1B).laneMap(4, 32) == Map{3, 2, 5, 4});
  // On 16-bit elements a 32-bit unit is two lanes.
  CHECK(sh::shufflePs(0x44).laneMap(8, 16) == Map{0, 1, 2, 3, 8, 9, 10, 11});
  // 64-bit elements cannot move as 32-bit units; a 64-bit vector has no whole segment.
  CHECK_THROWS_WITH_AS(sh::shufflePs(0x44).laneMap(4, 64), doctest::Contains("narrower than the 64-bit elements"),
                       std::logic_error);
  CHECK_THROWS_AS(sh::shufflePs(0x88).laneMap(2, 32), std::logic_error);
}

TEST_CASE("lanes128 is shuffle_i32x4 on 512 bits and permute2x128 on 256") {
  auto range = [](int from, int count) {
    Map m;
    for (int i = 0; i < count; ++i) m.push_back(from + i);
    return m;
  };
  auto cat = [](std::vector<Map> parts) {
    Map m;
    for (const auto& p : parts) m.insert(m.end(), p.begin(), p.end());
    return m;
  };
  // 0x88: blocks a0 a2 b0 b2; 0xDD: a1 a3 b1 b3; 0x44: a0 a1 b0 b1.
  CHECK(sh::lanes128(0x88).laneMap(16, 32) == cat({range(0, 4), range(8, 4), range(16, 4), range(24, 4)}));
  CHECK(sh::lanes128(0xDD).laneMap(16, 32) == cat({range(4, 4), range(12, 4), range(20, 4), range(28, 4)}));
  CHECK(sh::lanes128(0x44).laneMap(8, 64) == Map{0, 1, 2, 3, 8, 9, 10, 11});
  // permute2x128: 0x20 = a0 b0, 0x31 = a1 b1, 0x02 = b0 a0.
  CHECK(sh::lanes128(0x20).laneMap(8, 32) == Map{0, 1, 2, 3, 8, 9, 10, 11});
  CHECK(sh::lanes128(0x31).laneMap(8, 32) == Map{4, 5, 6, 7, 12, 13, 14, 15});
  CHECK(sh::lanes128(0x02).laneMap(8, 32) == Map{8, 9, 10, 11, 0, 1, 2, 3});
  CHECK(sh::lanes128(0x31).laneMap(4, 64) == Map{2, 3, 6, 7});
  CHECK_THROWS_WITH_AS(sh::lanes128(0x28).laneMap(8, 32), doctest::Contains("zeroing"), std::logic_error);
  CHECK_THROWS_AS(sh::lanes128(0x20).laneMap(4, 32), std::logic_error);   // 128 bits
  CHECK_THROWS_AS(sh::lanes128(0x20).laneMap(32, 32), std::logic_error);  // 1024 bits
}

TEST_CASE("concat_halves joins the same half of a and b") {
  CHECK(sh::concatHalves(false).laneMap(8, 32) == Map{0, 1, 2, 3, 8, 9, 10, 11});
  CHECK(sh::concatHalves(true).laneMap(8, 32) == Map{4, 5, 6, 7, 12, 13, 14, 15});
  CHECK(sh::concatHalves(true).laneMap(2, 64) == Map{1, 3});
}

TEST_CASE("Arm zip, uzp and trn work on the whole vector at any length") {
  CHECK(sh::zip1(32).laneMap(4, 32) == Map{0, 4, 1, 5});
  CHECK(sh::zip2(32).laneMap(4, 32) == Map{2, 6, 3, 7});
  CHECK(sh::zip1(32).laneMap(8, 32) == Map{0, 8, 1, 9, 2, 10, 3, 11});  // SVE at 256 bits
  CHECK(sh::zip2(32).laneMap(8, 32) == Map{4, 12, 5, 13, 6, 14, 7, 15});
  CHECK(sh::zip1(64).laneMap(8, 32) == Map{0, 1, 8, 9, 2, 3, 10, 11});
  CHECK(sh::zip2(64).laneMap(8, 32) == Map{4, 5, 12, 13, 6, 7, 14, 15});
  CHECK(sh::uzp1(32).laneMap(4, 32) == Map{0, 2, 4, 6});
  CHECK(sh::uzp2(32).laneMap(4, 32) == Map{1, 3, 5, 7});
  CHECK(sh::uzp1(64).laneMap(8, 32) == Map{0, 1, 4, 5, 8, 9, 12, 13});
  CHECK(sh::uzp2(64).laneMap(8, 32) == Map{2, 3, 6, 7, 10, 11, 14, 15});
  CHECK(sh::trn1(32).laneMap(4, 32) == Map{0, 4, 2, 6});
  CHECK(sh::trn2(32).laneMap(4, 32) == Map{1, 5, 3, 7});
  CHECK(sh::trn1(64).laneMap(8, 32) == Map{0, 1, 8, 9, 4, 5, 12, 13});
  CHECK(sh::trn2(64).laneMap(8, 32) == Map{2, 3, 10, 11, 6, 7, 14, 15});
  CHECK(sh::trn1(8).laneMap(4, 8) == Map{0, 4, 2, 6});
  // A 2048-bit SVE vector of f32 (vscale 16): zip1 still interleaves the low halves.
  const Map zip64 = sh::zip1(32).laneMap(64, 32);
  CHECK(zip64.size() == 64);
  CHECK(zip64[0] == 0);
  CHECK(zip64[1] == 64);
  CHECK(zip64[62] == 31);
  CHECK(zip64[63] == 95);
  CHECK_THROWS_WITH_AS(sh::zip1(16).laneMap(8, 32), doctest::Contains("narrower than the 32-bit elements"),
                       std::logic_error);
  CHECK_THROWS_AS(sh::trn1(128).laneMap(4, 32), std::logic_error);  // a single unit
}

TEST_CASE("explicit maps are checked against the lane count") {
  CHECK(sh::explicitMap({3, 0, 5, 6}).laneMap(4, 32) == Map{3, 0, 5, 6});
  CHECK_THROWS_WITH_AS(sh::explicitMap({0, 1, 2}).laneMap(4, 32), doctest::Contains("3 entries for 4 lanes"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(sh::explicitMap({0, 1, 2, 8}).laneMap(4, 32), doctest::Contains("entry 8"), std::logic_error);
  CHECK_THROWS_AS(sh::explicitMap({0, -1, 2, 3}).laneMap(4, 32), std::logic_error);
}

TEST_CASE("shuffles print as the instruction they name") {
  CHECK(sh::unpackLo(64).str() == "unpack_lo.64");
  CHECK(sh::unpackHi(32).str() == "unpack_hi.32");
  CHECK(sh::lanes128(0x88).str() == "lanes128 0x88");
  CHECK(sh::lanes128(0xDD).str() == "lanes128 0xDD");
  CHECK(sh::shufflePs(0x44).str() == "shuffle_ps 0x44");
  CHECK(sh::concatHalves(true).str() == "concat_halves high");
  CHECK(sh::zip1(32).str() == "zip1.32");
  CHECK(sh::uzp2(64).str() == "uzp2.64");
  CHECK(sh::trn1(8).str() == "trn1.8");
  CHECK(sh::explicitMap({0, 16, 1, 17}).str() == "explicit [0 16 1 17]");
  const ir::Stmt s = sh::shuffleOp("t", {DType::f32, 16}, {"a", "b"}, sh::zip2(32));
  CHECK(s.kind == ir::Stmt::Kind::Op);
  CHECK(s.op == ir::OpKind::Shuffle);
  CHECK(s.declare);
  CHECK(s.dst == "t");
  CHECK(ir::toString(s.type) == "f32x16");
  CHECK(s.args == std::vector<std::string>{"a", "b"});
  CHECK(s.shuffle.kind == ir::Shuffle::Kind::zip2);
  CHECK(s.shuffle.unitBits == 32);
}

TEST_CASE("the symbolic runner moves tags through shuffles and unions them through binary ops") {
  const ir::VecType v4{DType::i32, 4};
  ir::Block b = {ir::comment("tags only"), sh::shuffleOp("z", v4, {"a", "b"}, sh::zip1(32)),
                 ir::op(ir::OpKind::Binary, "s", v4, {"z", "a"})};
  b.back().declare = true;
  const sim::SymbolicRun run = sim::runSymbolic(b, {{"a", {0, 1, 2, 3}}, {"b", {4, 5, 6, 7}}});
  REQUIRE(run.stages.size() == 2);
  CHECK(run.stages[0].text() == "0 4 1 5");
  CHECK(run.stages[0].line() == "z = shuffle zip1.32 a, b: 0 4 1 5");
  CHECK(run.stages[1].text() == "0 {1,4} {1,2} {3,5}");
  CHECK(run.values.at("s")[1] == sim::TagSet{1, 4});
  // A scalable type runs at lanes * vscale.
  const ir::Block sve = {sh::shuffleOp("z", ir::scalableOf(DType::f32), {"a", "b"}, sh::zip2(32))};
  CHECK(sim::runSymbolic(sve, {{"a", {0, 1, 2, 3, 4, 5, 6, 7}}, {"b", {8, 9, 10, 11, 12, 13, 14, 15}}}, 2)
            .stages[0]
            .text() == "4 12 5 13 6 14 7 15");
  // Anything but shuffles and binary ops is refused by name.
  ir::Block load = {ir::op(ir::OpKind::Load, "x", v4)};
  CHECK_THROWS_WITH_AS(sim::runSymbolic(load, {}), doctest::Contains("op load (x)"), std::logic_error);
  CHECK_THROWS_WITH_AS(sim::runSymbolic(b, {{"a", {0, 1, 2, 3}}}), doctest::Contains("reads undefined b"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(sim::runSymbolic(b, {{"a", {0, 1}}, {"b", {2, 3}}}), doctest::Contains("operand a has 2"),
                       std::logic_error);
}

TEST_CASE("the seed-004 AVX-512 16x16 network is a transpose, with the seed's lane tables") {
  const TransposeNetwork net = transpose16x16Avx512();
  CHECK(ir::toString(net.type) == "f32x16");
  CHECK(shuffleCount(net.body) == 64);
  CHECK(countOf(net.body, "unpack_lo.32") == 8);
  CHECK(countOf(net.body, "unpack_hi.32") == 8);
  CHECK(countOf(net.body, "unpack_lo.64") == 8);
  CHECK(countOf(net.body, "unpack_hi.64") == 8);
  CHECK(countOf(net.body, "lanes128 0x88") == 16);
  CHECK(countOf(net.body, "lanes128 0xDD") == 16);

  const sim::TransposeProof p = prove(net);
  CHECK_MESSAGE(p.ok, p.message);
  CHECK(p.message.empty());
  CHECK(p.stages.size() == 64);
  // After stage 1 (the seed's first table).
  CHECK(stageText(p, "t1_0") == "0 16 1 17 4 20 5 21 8 24 9 25 12 28 13 29");
  CHECK(stageText(p, "t1_1") == "2 18 3 19 6 22 7 23 10 26 11 27 14 30 15 31");
  CHECK(stageText(p, "t1_2") == "32 48 33 49 36 52 37 53 40 56 41 57 44 60 45 61");
  CHECK(stageText(p, "t1_3") == "34 50 35 51 38 54 39 55 42 58 43 59 46 62 47 63");
  CHECK(stageText(p, "t1_4") == "64 80 65 81 68 84 69 85 72 88 73 89 76 92 77 93");
  // After stage 2.
  CHECK(stageText(p, "t2_0") == "0 16 32 48 4 20 36 52 8 24 40 56 12 28 44 60");
  CHECK(stageText(p, "t2_1") == "1 17 33 49 5 21 37 53 9 25 41 57 13 29 45 61");
  CHECK(stageText(p, "t2_2") == "2 18 34 50 6 22 38 54 10 26 42 58 14 30 46 62");
  CHECK(stageText(p, "t2_3") == "3 19 35 51 7 23 39 55 11 27 43 59 15 31 47 63");
  CHECK(stageText(p, "t2_4") == "64 80 96 112 68 84 100 116 72 88 104 120 76 92 108 124");
  CHECK(stageText(p, "t2_5") == "65 81 97 113 69 85 101 117 73 89 105 121 77 93 109 125");
  // After stage 3.
  CHECK(stageText(p, "t3_0") == "0 16 32 48 8 24 40 56 64 80 96 112 72 88 104 120");
  CHECK(stageText(p, "t3_4") == "4 20 36 52 12 28 44 60 68 84 100 116 76 92 108 124");
  CHECK(stageText(p, "t3_8") == "128 144 160 176 136 152 168 184 192 208 224 240 200 216 232 248");
  // After the last stage, column c: c, 16 + c, ..., 240 + c.
  for (int c = 0; c < 16; ++c) {
    std::vector<int> column;
    for (int r = 0; r < 16; ++r) column.push_back(16 * r + c);
    CHECK(stageText(p, "col" + std::to_string(c)) == spaced(column));
  }
  CHECK(stageText(p, "col0") == "0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240");
  CHECK(p.table().front() == "t1_0 = shuffle unpack_lo.32 row0, row1: 0 16 1 17 4 20 5 21 8 24 9 25 12 28 13 29");
  CHECK_THROWS_AS(transpose16x16Avx512(DType::f64), std::logic_error);
}

TEST_CASE("the AVX2 8x8 network is a transpose") {
  const TransposeNetwork net = transpose8x8Avx2();
  CHECK(ir::toString(net.type) == "f32x8");
  CHECK(shuffleCount(net.body) == 24);
  const sim::TransposeProof p = prove(net);
  CHECK_MESSAGE(p.ok, p.message);
  CHECK(stageText(p, "t1_0") == "0 8 1 9 4 12 5 13");
  CHECK(stageText(p, "t2_0") == "0 8 16 24 4 12 20 28");
  CHECK(stageText(p, "t2_1") == "1 9 17 25 5 13 21 29");
  CHECK(stageText(p, "col0") == "0 8 16 24 32 40 48 56");
  CHECK(stageText(p, "col7") == "7 15 23 31 39 47 55 63");
  CHECK(prove(transpose8x8Avx2(DType::i32)).ok);
}

TEST_CASE("the Arm zip network transposes n x n tiles, fixed and scalable") {
  for (int n : {4, 8, 16}) {
    CAPTURE(n);
    const TransposeNetwork net = transposeZip({DType::f32, n}, n);
    int stages = 0;
    for (int m = n; m > 1; m /= 2) ++stages;
    CHECK(shuffleCount(net.body) == n * stages);
    const sim::TransposeProof p = prove(net);
    CHECK_MESSAGE(p.ok, p.message);
  }
  CHECK(prove(transposeZip({DType::u8, 16}, 16)).ok);
  CHECK(prove(transposeZip({DType::f64, 2}, 2)).ok);
  // SVE f32 at 128..2048 bits: one network per vscale (tile size = 4 * vscale).
  const ir::VecType sve = ir::scalableOf(DType::f32);
  for (int vscale : {1, 2, 4, 8, 16}) {
    CAPTURE(vscale);
    const TransposeNetwork net = transposeZip(sve, 4 * vscale);
    const sim::TransposeProof p = prove(net, vscale);
    CHECK_MESSAGE(p.ok, p.message);
    CHECK(p.stages.back().lanes.size() == size_t(4 * vscale));
  }
  // A network built for one vscale does not run at another.
  CHECK_THROWS_AS(prove(transposeZip(sve, 8), 1), std::logic_error);
  CHECK_THROWS_AS(transposeZip(sve, 6), std::logic_error);
  CHECK_THROWS_AS(transposeZip({DType::f32, 8}, 4), std::logic_error);
}

TEST_CASE("a network with two lanes swapped is refused at the first wrong lane") {
  TransposeNetwork net = transpose16x16Avx512();
  // t1_2 = unpacklo_epi32(row2, row3) with its lanes 4 and 5 exchanged: lanes 4..7 hold 52 36 37 53.
  ir::Stmt& s = statementDefining(net.body, "t1_2");
  REQUIRE(s.shuffle.str() == "unpack_lo.32");
  s.shuffle = sh::explicitMap({0, 16, 1, 17, 20, 4, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29});
  const sim::TransposeProof p = prove(net);
  CHECK_FALSE(p.ok);
  CHECK(stageText(p, "t1_2") == "32 48 33 49 52 36 37 53 40 56 41 57 44 60 45 61");
  // The swapped pair reaches t2_0's second segment, t3_4's first block, then col4 lanes 2 and 3;
  // col0..col3 never see it.
  CHECK(stageText(p, "col4") == "4 20 52 36 68 84 100 116 132 148 164 180 196 212 228 244");
  CHECK(p.message == "col4 lane 2 holds row 3, col 4 (tag 52); expected row 2, col 4 (tag 36)");

  // A lane that combines elements, and a missing output, are refused too.
  TransposeNetwork mixed = transpose8x8Avx2();
  ir::Stmt& c3 = statementDefining(mixed.body, "col3");
  c3.op = ir::OpKind::Binary;
  c3.shuffle = {};
  const sim::TransposeProof pm = prove(mixed);
  CHECK_FALSE(pm.ok);
  CHECK(pm.message.rfind("col3 lane 0 holds the combination {", 0) == 0);
  TransposeNetwork missing = transpose8x8Avx2();
  missing.body.pop_back();
  CHECK(prove(missing).message == "output col7 is never defined");
}

TEST_CASE("foldLaneTable still renders the fold network's stages") {
  const ir::FoldNetwork n = ir::FoldNetwork::make(16, 32);
  const std::vector<std::string> lines = sim::foldLaneTable(n);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].rfind("stage 1, 16-lane blocks: r", 0) == 0);
  CHECK(lines[1].rfind("stage 2, 8-lane blocks: r", 0) == 0);
  CHECK(lines[3] == "stage 4, 2-lane blocks: r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r14 r15");
}
