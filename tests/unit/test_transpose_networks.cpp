// SPDX-License-Identifier: Apache-2.0
// The transpose networks of plan/transpose_networks.h proven with the lane simulator at every
// element width and vector length they are built for: the generic x86 network (unpack stages
// inside 128-bit segments, then 128-bit block moves), seed 004's half-row 16x16 variant, and the
// Arm zip and trn networks (NEON, and SVE at vscale 1..16). tests/ir executes them natively.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "ir/proof_plans.h"
#include "ir/shuffle.h"
#include "plan/transpose_networks.h"
#include "sim/lane_sim.h"

using namespace simdgen;
namespace sh = ir::shuffles;

namespace {

bool isShuffle(const ir::Stmt& s) { return s.kind == ir::Stmt::Kind::Op && s.op == ir::OpKind::Shuffle; }

int shuffleCount(const ir::Block& b) { return int(std::count_if(b.begin(), b.end(), isShuffle)); }

std::vector<std::string> comments(const ir::Block& b) {
  std::vector<std::string> texts;
  for (const auto& s : b)
    if (s.kind == ir::Stmt::Kind::Comment) texts.push_back(s.text);
  return texts;
}

int log2Of(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

sim::TransposeProof prove(const TransposeNetwork& n, int vscale = 1) {
  return sim::proveTranspose(n.body, n.rows, n.cols, vscale);
}

bool defines(const ir::Block& b, const std::string& var) {
  return std::any_of(b.begin(), b.end(), [&](const ir::Stmt& s) { return isShuffle(s) && s.dst == var; });
}

ir::Stmt& statementDefining(ir::Block& b, const std::string& var) {
  for (auto& s : b)
    if (isShuffle(s) && s.dst == var) return s;
  throw std::logic_error("no statement defines " + var);
}

// "dst = shuffle args" per statement and comments as "// text": two blocks are the same network
// when these lines are.
std::vector<std::string> lines(const ir::Block& b) {
  std::vector<std::string> out;
  for (const auto& s : b) {
    if (s.kind == ir::Stmt::Kind::Comment) {
      out.push_back("// " + s.text);
      continue;
    }
    std::string line = s.dst + " : " + ir::toString(s.type) + " = " + s.shuffle.str();
    for (const auto& a : s.args) line += " " + a;
    out.push_back(line);
  }
  return out;
}

// The seed-004 network as it was first written out by hand (before transposeNetworkX86): the
// generic network must reproduce it statement by statement.
ir::Block seed16x16(DType elem) {
  const ir::VecType t{elem, 16};
  auto names = [](const std::string& p) {
    std::vector<std::string> v;
    for (int i = 0; i < 16; ++i) v.push_back(p + std::to_string(i));
    return v;
  };
  const auto row = names("row"), col = names("col"), t1 = names("t1_"), t2 = names("t2_"), t3 = names("t3_");
  ir::Block b;
  auto pair = [&](const std::string& lo, const std::string& hi, const std::string& a, const std::string& c,
                  const ir::Shuffle& lower, const ir::Shuffle& upper) {
    b.push_back(sh::shuffleOp(lo, t, {a, c}, lower));
    b.push_back(sh::shuffleOp(hi, t, {a, c}, upper));
  };
  b.push_back(ir::comment("stage 1: interleave 32-bit lanes of row pairs (unpacklo/hi_epi32)"));
  for (int i = 0; i < 8; ++i) pair(t1[2 * i], t1[2 * i + 1], row[2 * i], row[2 * i + 1], sh::unpackLo(32), sh::unpackHi(32));
  b.push_back(ir::comment("stage 2: interleave 64-bit lanes (unpacklo/hi_epi64)"));
  for (int i = 0; i < 16; i += 4)
    for (int j = 0; j < 2; ++j)
      pair(t2[i + 2 * j], t2[i + 2 * j + 1], t1[i + j], t1[i + j + 2], sh::unpackLo(64), sh::unpackHi(64));
  b.push_back(ir::comment("stage 3: gather 128-bit blocks (shuffle_i32x4 0x88 / 0xDD)"));
  for (int i = 0; i < 16; i += 8)
    for (int j = 0; j < 4; ++j) pair(t3[i + j], t3[i + j + 4], t2[i + j], t2[i + j + 4], sh::lanes128(0x88), sh::lanes128(0xDD));
  b.push_back(ir::comment("stage 4: gather 256-bit halves (shuffle_i32x4 0x88 / 0xDD)"));
  for (int j = 0; j < 8; ++j) pair(col[j], col[j + 8], t3[j], t3[j + 8], sh::lanes128(0x88), sh::lanes128(0xDD));
  return b;
}

// Runs `net` on inputs tagged `tags` (tags[k][l]: the tile element row * n + col that lane l of
// input k holds) and checks column c lane r holds row r, col c: "" or the first wrong lane.
std::string checkColumns(const TransposeNetwork& net, const std::vector<std::vector<int>>& tags) {
  std::map<std::string, std::vector<int>> inputs;
  for (size_t k = 0; k < net.rows.size(); ++k) inputs[net.rows[k]] = tags[k];
  const sim::SymbolicRun run = sim::runSymbolic(net.body, inputs);
  const int n = int(net.cols.size());
  for (int c = 0; c < n; ++c) {
    const sim::TagLanes& lanes = run.values.at(net.cols[size_t(c)]);
    for (int r = 0; r < n; ++r)
      if (lanes[size_t(r)] != sim::TagSet{r * n + c})
        return net.cols[size_t(c)] + " lane " + std::to_string(r) + " holds " + sim::laneText({lanes[size_t(r)]});
  }
  return "";
}

}  // namespace

TEST_CASE("the generic x86 network transposes every element width in 128-, 256- and 512-bit vectors") {
  for (DType t : kAllDTypes)
    for (int bits : {128, 256, 512}) {
      const int w = bitsOf(t), n = bits / w;
      CAPTURE(nameOf(t));
      CAPTURE(bits);
      const TransposeNetwork net = transposeNetworkX86({t, n});
      REQUIRE(net.rows.size() == size_t(n));
      CHECK(net.rows.front() == "row0");
      CHECK(net.cols.back() == "col" + std::to_string(n - 1));
      CHECK(net.halfRows.empty());
      // log2(128 / w) unpack stages, then one (256) or two (512) 128-bit block stages.
      const int unpacks = log2Of(128 / w), stages = unpacks + (bits == 512 ? 2 : bits == 256 ? 1 : 0);
      CHECK(shuffleCount(net.body) == n * stages);
      const std::vector<std::string> stageComments = comments(net.body);
      REQUIRE(stageComments.size() == size_t(stages));
      for (int s = 0; s < stages; ++s) {
        CHECK(stageComments[size_t(s)].rfind("stage " + std::to_string(s + 1) + ": ", 0) == 0);
        // Every stage but the last writes t<s>_*; the last writes the columns.
        const std::string first = s + 1 == stages ? "col0" : "t" + std::to_string(s + 1) + "_0";
        CHECK(defines(net.body, first));
      }
      for (int s = 0; s < unpacks; ++s) {
        const std::string unit = std::to_string(w << s);
        CHECK(std::count_if(net.body.begin(), net.body.end(), [&](const ir::Stmt& st) {
                return isShuffle(st) && st.shuffle.str() == "unpack_lo." + unit;
              }) == n / 2);
      }
      const sim::TransposeProof p = prove(net);
      CHECK_MESSAGE(p.ok, p.message);
    }
  CHECK(shuffleCount(transposeNetworkX86({DType::u8, 64}).body) == 384);
  CHECK(shuffleCount(transposeNetworkX86({DType::i16, 16}).body) == 64);
  CHECK(shuffleCount(transposeNetworkX86({DType::f64, 2}).body) == 2);
  CHECK(shuffleCount(transposeNetworkX86({DType::f32, 8}).body) == 24);
  CHECK_THROWS_AS(transposeNetworkX86({DType::f32, 32}), std::logic_error);  // 1024 bits
  CHECK_THROWS_AS(transposeNetworkX86({DType::i8, 8}), std::logic_error);    // 64 bits
  CHECK_THROWS_AS(transposeNetworkX86(ir::scalableOf(DType::f32)), std::logic_error);
}

TEST_CASE("the generic x86 network reproduces seed 004's 16x16 and the 8-bit 512-bit stages are named") {
  for (DType t : {DType::f32, DType::i32, DType::u32}) {
    CAPTURE(nameOf(t));
    CHECK(lines(transposeNetworkX86({t, 16}).body) == lines(seed16x16(t)));
    CHECK(lines(transpose16x16Avx512(t).body) == lines(seed16x16(t)));
  }
  CHECK(comments(transposeNetworkX86({DType::u8, 64}).body) ==
        std::vector<std::string>{"stage 1: interleave 8-bit lanes of row pairs (unpacklo/hi_epi8)",
                                 "stage 2: interleave 16-bit lanes (unpacklo/hi_epi16)",
                                 "stage 3: interleave 32-bit lanes (unpacklo/hi_epi32)",
                                 "stage 4: interleave 64-bit lanes (unpacklo/hi_epi64)",
                                 "stage 5: gather 128-bit blocks (shuffle_i32x4 0x88 / 0xDD)",
                                 "stage 6: gather 256-bit halves (shuffle_i32x4 0x88 / 0xDD)"});
  CHECK(comments(transposeNetworkX86({DType::i64, 4}).body) ==
        std::vector<std::string>{"stage 1: interleave 64-bit lanes of row pairs (unpacklo/hi_epi64)",
                                 "stage 2: join 128-bit halves (permute2x128 0x20 / 0x31)"});
  // 16-bit, 256 bits: after the three unpack stages vector j holds column j (rows 0..7) in its
  // low segment and column j + 8 in its high one; rows 8..15 are in vector 8 + j.
  const sim::TransposeProof p = prove(transposeNetworkX86({DType::i16, 16}));
  REQUIRE(p.ok);
  auto text = [&](const std::string& var) {
    for (const auto& s : p.stages)
      if (s.var == var) return s.text();
    return std::string("?");
  };
  CHECK(text("t3_1") == "1 17 33 49 65 81 97 113 9 25 41 57 73 89 105 121");
  CHECK(text("t3_9") == "129 145 161 177 193 209 225 241 137 153 169 185 201 217 233 249");
  CHECK(text("col9") == "9 25 41 57 73 89 105 121 137 153 169 185 201 217 233 249");
}

TEST_CASE("the half-row 16x16 network: 48 shuffles, inputs of two half rows each") {
  for (DType t : {DType::f32, DType::i32, DType::u32}) {
    CAPTURE(nameOf(t));
    const TransposeNetwork net = transpose16x16Avx512HalfRows(t);
    CHECK(shuffleCount(net.body) == 48);
    CHECK(shuffleCount(transpose16x16Avx512(t).body) == 64);
    CHECK(comments(net.body).size() == 3);
    REQUIRE(net.rows.size() == 16);
    REQUIRE(net.halfRows.size() == 32);
    // in<8h + 4b + q> = concat(row 8b + q half h, row 8b + q + 4 half h), written out by hand.
    std::vector<std::vector<int>> tags;
    for (int k = 0; k < 16; ++k) {
      const int h = k / 8, b = k / 4 % 2, q = k % 4;
      CHECK(net.rows[size_t(k)] == "in" + std::to_string(k));
      CHECK(net.halfRows[size_t(2 * k)] == std::pair<int, int>{8 * b + q, h});
      CHECK(net.halfRows[size_t(2 * k + 1)] == std::pair<int, int>{8 * b + q + 4, h});
      std::vector<int> lanes;
      for (int l = 0; l < 8; ++l) lanes.push_back((8 * b + q) * 16 + 8 * h + l);
      for (int l = 0; l < 8; ++l) lanes.push_back((8 * b + q + 4) * 16 + 8 * h + l);
      CHECK(inputElements(net, k) == lanes);
      tags.push_back(lanes);
    }
    CHECK(inputElements(net, 9) == std::vector<int>{24, 25, 26, 27, 28, 29, 30, 31, 88, 89, 90, 91, 92, 93, 94, 95});
    CHECK(checkColumns(net, tags) == "");

    // The same through proveTranspose: full rows, concat_halves into the inputs, then the network.
    std::vector<std::string> fullRows;
    for (int r = 0; r < 16; ++r) fullRows.push_back("full" + std::to_string(r));
    ir::Block composed = proof_plans::gatherHalfRows(net, fullRows);
    composed.insert(composed.end(), net.body.begin(), net.body.end());
    const sim::TransposeProof p = sim::proveTranspose(composed, fullRows, net.cols);
    CHECK_MESSAGE(p.ok, p.message);
    // Fed plain rows, it is no transpose.
    CHECK_FALSE(prove(net).ok);
  }
  CHECK_THROWS_AS(transpose16x16Avx512HalfRows(DType::f64), std::logic_error);

  // Two operands exchanged: col5 = shuffle_i32x4 0xDD(t2_5, t2_1) starts with rows 8..11.
  TransposeNetwork broken = transpose16x16Avx512HalfRows();
  ir::Stmt& s = statementDefining(broken.body, "col5");
  REQUIRE(s.args == std::vector<std::string>{"t2_1", "t2_5"});
  std::swap(s.args[0], s.args[1]);
  std::vector<std::vector<int>> tags;
  for (int k = 0; k < 16; ++k) tags.push_back(inputElements(broken, k));
  CHECK(checkColumns(broken, tags) == "col5 lane 0 holds 133");
}

TEST_CASE("the generic half-row network transposes every element width in 256- and 512-bit vectors") {
  for (int bits : {256, 512})
    for (DType t : {DType::u8, DType::i16, DType::f32, DType::f64}) {
      const ir::VecType v{t, bits / bitsOf(t)};
      CAPTURE(ir::toString(v));
      const TransposeNetwork net = transposeHalfRowsX86(v);
      const int n = v.lanes, stages = log2Of(128 / bitsOf(t)) + (bits == 512 ? 1 : 0);
      CHECK(shuffleCount(net.body) == n * stages);
      CHECK(shuffleCount(net.body) == shuffleCount(transposeNetworkX86(v).body) - n);  // the loads do one stage
      std::vector<std::vector<int>> tags;
      for (int k = 0; k < n; ++k) tags.push_back(inputElements(net, k));
      CHECK(checkColumns(net, tags) == "");
      std::vector<std::string> fullRows;
      for (int r = 0; r < n; ++r) fullRows.push_back("full" + std::to_string(r));
      ir::Block composed = proof_plans::gatherHalfRows(net, fullRows);
      composed.insert(composed.end(), net.body.begin(), net.body.end());
      const sim::TransposeProof p = sim::proveTranspose(composed, fullRows, net.cols);
      CHECK_MESSAGE(p.ok, p.message);
    }
  // The 32-bit 512-bit case is seed 004's 48-shuffle network, statement for statement.
  CHECK(lines(transposeHalfRowsX86({DType::f32, 16}).body) == lines(transpose16x16Avx512HalfRows().body));
  CHECK_THROWS_AS(transposeHalfRowsX86({DType::f32, 4}), std::logic_error);
}

TEST_CASE("the x86 networks with two operands exchanged are refused at the first wrong lane") {
  // 4 x 4 i64 in 256 bits: t1_0 = unpacklo_epi64(row1, row0) puts row 1 first in col0.
  TransposeNetwork small = transposeNetworkX86({DType::i64, 4});
  ir::Stmt& s = statementDefining(small.body, "t1_0");
  REQUIRE(s.args == std::vector<std::string>{"row0", "row1"});
  std::swap(s.args[0], s.args[1]);
  const sim::TransposeProof p = prove(small);
  CHECK_FALSE(p.ok);
  CHECK(p.message == "col0 lane 0 holds row 1, col 0 (tag 4); expected row 0, col 0 (tag 0)");

  // 16 x 16 i16 in 256 bits: t2_2 = unpacklo_epi32(t1_3, t1_1) puts rows 2, 3 before rows 0, 1
  // in columns 4 and 5 (and 12, 13): col4 lane 0 is the first wrong lane.
  TransposeNetwork mid = transposeNetworkX86({DType::i16, 16});
  ir::Stmt& m = statementDefining(mid.body, "t2_2");
  REQUIRE(m.args == std::vector<std::string>{"t1_1", "t1_3"});
  std::swap(m.args[0], m.args[1]);
  const sim::TransposeProof pm = prove(mid);
  CHECK_FALSE(pm.ok);
  CHECK(pm.message == "col4 lane 0 holds row 2, col 4 (tag 36); expected row 0, col 4 (tag 4)");

  // 64 x 64 u8 in 512 bits, last stage: col0 = shuffle_i32x4 0x88(t5_32, t5_0) starts with rows 32..47.
  TransposeNetwork big = transposeNetworkX86({DType::u8, 64});
  ir::Stmt& b = statementDefining(big.body, "col0");
  REQUIRE(b.args == std::vector<std::string>{"t5_0", "t5_32"});
  std::swap(b.args[0], b.args[1]);
  const sim::TransposeProof pb = prove(big);
  CHECK_FALSE(pb.ok);
  CHECK(pb.message == "col0 lane 0 holds row 32, col 0 (tag 2048); expected row 0, col 0 (tag 0)");
}

TEST_CASE("the Arm zip network at every element width: NEON and SVE at vscale 1..16") {
  for (DType t : kAllDTypes) {
    CAPTURE(nameOf(t));
    const int n = 128 / bitsOf(t);
    const TransposeNetwork neon = transposeZip({t, n}, n);
    CHECK(shuffleCount(neon.body) == n * log2Of(n));
    const sim::TransposeProof p = prove(neon);
    CHECK_MESSAGE(p.ok, p.message);
    for (int vscale : {1, 2, 4, 8, 16}) {
      CAPTURE(vscale);
      const TransposeNetwork sve = transposeZip(ir::scalableOf(t), n * vscale);
      CHECK(shuffleCount(sve.body) == n * vscale * log2Of(n * vscale));
      const sim::TransposeProof ps = prove(sve, vscale);
      CHECK_MESSAGE(ps.ok, ps.message);
    }
  }
  // zip1 and zip2 exchanged in one statement: caught.
  TransposeNetwork broken = transposeZip({DType::i16, 8}, 8);
  ir::Stmt& s = statementDefining(broken.body, "z1_0");
  std::swap(s.args[0], s.args[1]);
  const sim::TransposeProof p = prove(broken);
  CHECK_FALSE(p.ok);
  CHECK(p.message.find(" lane ") != std::string::npos);
}

TEST_CASE("the Arm trn network at every element width in 128-bit vectors") {
  for (DType t : kAllDTypes) {
    CAPTURE(nameOf(t));
    const int n = 128 / bitsOf(t);
    for (ir::VecType type : {ir::VecType{t, n}, ir::scalableOf(t)}) {
      const TransposeNetwork net = transposeTrn(type, n);
      CHECK(shuffleCount(net.body) == n * log2Of(n));
      CHECK(comments(net.body).size() == size_t(log2Of(n)));
      const sim::TransposeProof p = prove(net);
      CHECK_MESSAGE(p.ok, p.message);
    }
  }
  const TransposeNetwork f32 = transposeTrn({DType::f32, 4}, 4);
  CHECK(lines(f32.body) == std::vector<std::string>{"// stage 1: trn1/trn2 of 32-bit units, vector i with vector i + 1",
                                                    "t1_0 : f32x4 = trn1.32 row0 row1",
                                                    "t1_1 : f32x4 = trn2.32 row0 row1",
                                                    "t1_2 : f32x4 = trn1.32 row2 row3",
                                                    "t1_3 : f32x4 = trn2.32 row2 row3",
                                                    "// stage 2: trn1/trn2 of 64-bit units, vector i with vector i + 2",
                                                    "col0 : f32x4 = trn1.64 t1_0 t1_2",
                                                    "col2 : f32x4 = trn2.64 t1_0 t1_2",
                                                    "col1 : f32x4 = trn1.64 t1_1 t1_3",
                                                    "col3 : f32x4 = trn2.64 t1_1 t1_3"});
  // trn moves units of at most 64 bits: no 256-bit (or vscale 2) network.
  CHECK_THROWS_AS(transposeTrn({DType::f32, 8}, 8), std::logic_error);
  CHECK_THROWS_AS(transposeTrn(ir::scalableOf(DType::f32), 8), std::logic_error);
  CHECK_THROWS_AS(transposeTrn({DType::f32, 4}, 2), std::logic_error);
}
