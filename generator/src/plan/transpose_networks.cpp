// SPDX-License-Identifier: Apache-2.0
#include "plan/transpose_networks.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "ir/shuffle.h"

namespace simdgen {

namespace {

namespace sh = ir::shuffles;

std::vector<std::string> numbered(const std::string& prefix, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

TransposeNetwork emptyNetwork(ir::VecType type, int n) {
  return {type, numbered("row", n), numbered("col", n), {}, {}};
}

void require32Bit(DType elem, const char* network) {
  if (bitsOf(elem) != 32)
    throw std::logic_error(std::string(network) + " transposes 32-bit elements, not " + std::string(nameOf(elem)));
}

// out[lo] = lower(a, b), out[hi] = upper(a, b): the two halves of one interleave/permute step.
void pair(TransposeNetwork& net, const std::string& lo, const std::string& hi, const std::string& a,
          const std::string& b, const ir::Shuffle& lower, const ir::Shuffle& upper) {
  net.body.push_back(sh::shuffleOp(lo, net.type, {a, b}, lower));
  net.body.push_back(sh::shuffleOp(hi, net.type, {a, b}, upper));
}

int log2Of(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// The results of stage s of `stages`: t<s>_0, t<s>_1, ... or, for the last stage, the columns.
std::vector<std::string> stageNames(const TransposeNetwork& net, int s, int stages) {
  return s == stages ? net.cols : numbered(std::string("t").append(std::to_string(s)).append("_"), int(net.cols.size()));
}

// Stage s of the in-segment transpose: unpacklo/hi at `unit` bits. Inside each group of 2^s
// vectors, vector j pairs with j + 2^(s-1), so that after stage s every 128-bit segment holds the
// transposed 2^s-square blocks (of units of the original width) of its group's rows.
void unpackStage(TransposeNetwork& net, int s, const std::vector<std::string>& in, const std::vector<std::string>& out,
                 int unit, const std::string& inputs = "row") {
  const std::string u = std::to_string(unit);
  net.body.push_back(ir::comment("stage " + std::to_string(s) + ": interleave " + u + "-bit lanes" +
                                 (s == 1 ? " of " + inputs + " pairs" : "") + " (unpacklo/hi_epi" + u + ")"));
  const int group = 1 << s, n = int(in.size());
  for (int i = 0; i < n; i += group)
    for (int j = 0; j < group / 2; ++j)
      pair(net, out[i + 2 * j], out[i + 2 * j + 1], in[i + j], in[i + j + group / 2], sh::unpackLo(unit), sh::unpackHi(unit));
}

// A stage of 128-bit block moves: inside each run of 2 * span vectors, vector j pairs with
// j + span and the results keep those positions.
void blockStage(TransposeNetwork& net, const std::vector<std::string>& in, const std::vector<std::string>& out, int span,
                const ir::Shuffle& lower, const ir::Shuffle& upper) {
  for (int i = 0; i < int(in.size()); i += 2 * span)
    for (int j = 0; j < span; ++j) pair(net, out[i + j], out[i + j + span], in[i + j], in[i + j + span], lower, upper);
}

}  // namespace

TransposeNetwork transpose16x16Avx512(DType elem) {
  require32Bit(elem, "the AVX-512 16x16 network");
  return transposeNetworkX86({elem, 16});
}

TransposeNetwork transposeNetworkX86(ir::VecType type) {
  const int w = bitsOf(type.elem), bits = type.bits();
  if (type.scalable || (bits != 128 && bits != 256 && bits != 512))
    throw std::logic_error("an x86 transpose network needs 128-, 256- or 512-bit vectors, not " + ir::toString(type));
  const int n = type.lanes, segment = 128 / w;  // segment: lanes per 128-bit segment
  const int inSegment = log2Of(segment), stages = inSegment + (bits == 512 ? 2 : bits == 256 ? 1 : 0);
  TransposeNetwork net = emptyNetwork(type, n);
  std::vector<std::string> cur = net.rows;
  for (int s = 1; s <= stages; ++s) {
    const std::vector<std::string> next = stageNames(net, s, stages);
    if (s <= inSegment) {
      unpackStage(net, s, cur, next, w << (s - 1));
    } else if (bits == 256) {
      net.body.push_back(ir::comment("stage " + std::to_string(s) + ": join 128-bit halves (permute2x128 0x20 / 0x31)"));
      blockStage(net, cur, next, segment, sh::lanes128(0x20), sh::lanes128(0x31));
    } else {
      const bool blocks = s == inSegment + 1;  // then the 256-bit halves
      net.body.push_back(ir::comment("stage " + std::to_string(s) + (blocks ? ": gather 128-bit blocks" : ": gather 256-bit halves") +
                                     " (shuffle_i32x4 0x88 / 0xDD)"));
      blockStage(net, cur, next, blocks ? segment : 2 * segment, sh::lanes128(0x88), sh::lanes128(0xDD));
    }
    cur = next;
  }
  return net;
}

TransposeNetwork transpose16x16Avx512HalfRows(DType elem) {
  require32Bit(elem, "the AVX-512 16x16 half-row network");
  return transposeHalfRowsX86({elem, 16});
}

TransposeNetwork transposeHalfRowsX86(ir::VecType type) {
  const int w = bitsOf(type.elem), bits = type.bits();
  if (type.scalable || (bits != 256 && bits != 512))
    throw std::logic_error("an x86 half-row transpose network needs 256- or 512-bit vectors, not " + ir::toString(type));
  const int n = type.lanes, segment = 128 / w, inSegment = log2Of(segment);
  const int stages = inSegment + (bits == 512 ? 1 : 0);
  TransposeNetwork net = emptyNetwork(type, n);
  net.rows = numbered("in", n);
  // Input (n/2) h + segment b + q (512 bits; 256 bits: segment h + q, b = 0) joins half h of rows
  // 2 segment b + q and 2 segment b + q + segment: the loads do the 128-bit block move that the
  // full-row network's first cross-segment stage does.
  for (int h = 0; h < 2; ++h)
    for (int b = 0; b < (bits == 512 ? 2 : 1); ++b)
      for (int q = 0; q < segment; ++q) {
        net.halfRows.push_back({2 * segment * b + q, h});
        net.halfRows.push_back({2 * segment * b + q + segment, h});
      }
  std::vector<std::string> cur = net.rows;
  for (int s = 1; s <= stages; ++s) {
    const std::vector<std::string> next = stageNames(net, s, stages);
    if (s <= inSegment) {
      unpackStage(net, s, cur, next, w << (s - 1), "input");
    } else {
      // t<inSegment>_<(n/2) h + segment b + m> holds column (n/2) h + m of rows 2 segment b + ...
      // in block 0 and of the rows a segment further in block 2, column (n/2) h + segment + m in
      // blocks 1 and 3: one shuffle_i32x4 per column is left.
      net.body.push_back(ir::comment("stage " + std::to_string(s) + ": gather 128-bit blocks into columns (shuffle_i32x4 0x88 / 0xDD)"));
      blockStage(net, cur, next, segment, sh::lanes128(0x88), sh::lanes128(0xDD));
    }
    cur = next;
  }
  return net;
}

std::vector<int> inputElements(const TransposeNetwork& net, int k) {
  const int n = int(net.rows.size());
  std::vector<int> tags;
  for (int l = 0; l < n; ++l) {
    if (net.halfRows.empty()) {
      tags.push_back(k * n + l);
      continue;
    }
    const auto [row, half] = net.halfRows.at(size_t(2 * k + 2 * l / n));
    tags.push_back(row * n + half * (n / 2) + l % (n / 2));
  }
  return tags;
}

LineTile lineTileX86(DType elem) {
  const int w = bitsOf(elem);
  if (w != 8 && w != 16) throw std::logic_error("a whole-line tile transposes 8- or 16-bit elements, not " + std::string(nameOf(elem)));
  const int s = 128 / w, stages = log2Of(s);
  const ir::VecType type{elem, 512 / w};
  LineTile tile{s, emptyNetwork(type, s), emptyNetwork(type, 4)};
  TransposeNetwork& rows = tile.rows;
  rows.cols = numbered("seg", s);
  std::vector<std::string> cur = rows.rows;
  for (int st = 1; st <= stages; ++st) {
    const std::vector<std::string> next = st == stages ? rows.cols : numbered("t" + std::to_string(st) + "_", s);
    unpackStage(rows, st, cur, next, w << (st - 1));
    cur = next;
  }
  TransposeNetwork& blocks = tile.blocks;
  blocks.rows = numbered("part", 4);
  const auto& in = blocks.rows;
  const auto u = numbered("u", 4);
  blocks.body.push_back(ir::comment("pair the 128-bit blocks of groups 0, 1 and 2, 3 (shuffle_i32x4 0x44 / 0xEE)"));
  pair(blocks, u[0], u[1], in[0], in[1], sh::lanes128(0x44), sh::lanes128(0xEE));
  pair(blocks, u[2], u[3], in[2], in[3], sh::lanes128(0x44), sh::lanes128(0xEE));
  blocks.body.push_back(ir::comment("gather each block's four groups into one column (shuffle_i32x4 0x88 / 0xDD)"));
  pair(blocks, blocks.cols[0], blocks.cols[1], u[0], u[2], sh::lanes128(0x88), sh::lanes128(0xDD));
  pair(blocks, blocks.cols[2], blocks.cols[3], u[1], u[3], sh::lanes128(0x88), sh::lanes128(0xDD));
  return tile;
}

TransposeNetwork lineTileComposite(const LineTile& tile) {
  const int s = tile.group;
  TransposeNetwork net = emptyNetwork(tile.rows.type, 4 * s);
  auto rename = [](const TransposeNetwork& part, const std::function<std::string(const std::string&)>& name) {
    ir::Block body;
    for (ir::Stmt st : part.body) {
      if (st.kind != ir::Stmt::Kind::Op) continue;
      st.dst = name(st.dst);
      for (std::string& a : st.args) a = name(a);
      body.push_back(std::move(st));
    }
    return body;
  };
  auto index = [](const std::vector<std::string>& names, const std::string& n) {
    return int(std::find(names.begin(), names.end(), n) - names.begin());
  };
  for (int g = 0; g < 4; ++g) {
    ir::Block b = rename(tile.rows, [&](const std::string& n) {
      const int r = index(tile.rows.rows, n);
      return r < s ? "row" + std::to_string(s * g + r) : n + "_g" + std::to_string(g);
    });
    net.body.insert(net.body.end(), b.begin(), b.end());
  }
  for (int c = 0; c < s; ++c) {
    ir::Block b = rename(tile.blocks, [&](const std::string& n) {
      const int g = index(tile.blocks.rows, n), k = index(tile.blocks.cols, n);
      return g < 4 ? tile.rows.cols[size_t(c)] + "_g" + std::to_string(g) : k < 4 ? "col" + std::to_string(s * k + c) : n + "_c" + std::to_string(c);
    });
    net.body.insert(net.body.end(), b.begin(), b.end());
  }
  return net;
}

TransposeNetwork transpose8x8Avx2(DType elem) {
  require32Bit(elem, "the AVX2 8x8 network");
  TransposeNetwork net = emptyNetwork({elem, 8}, 8);
  const auto t1 = numbered("t1_", 8), t2 = numbered("t2_", 8);
  const auto& row = net.rows;
  const auto& col = net.cols;
  net.body.push_back(ir::comment("stage 1: interleave 32-bit lanes of row pairs (unpacklo/hi_ps)"));
  for (int i = 0; i < 4; ++i) pair(net, t1[2 * i], t1[2 * i + 1], row[2 * i], row[2 * i + 1], sh::unpackLo(32), sh::unpackHi(32));
  net.body.push_back(ir::comment("stage 2: gather 64-bit pairs (shuffle_ps 0x44 / 0xEE)"));
  for (int i = 0; i < 8; i += 4)
    for (int j = 0; j < 2; ++j)
      pair(net, t2[i + 2 * j], t2[i + 2 * j + 1], t1[i + j], t1[i + j + 2], sh::shufflePs(0x44), sh::shufflePs(0xEE));
  net.body.push_back(ir::comment("stage 3: join 128-bit halves (permute2x128 0x20 / 0x31)"));
  for (int j = 0; j < 4; ++j) pair(net, col[j], col[j + 4], t2[j], t2[j + 4], sh::lanes128(0x20), sh::lanes128(0x31));
  return net;
}

TransposeNetwork transposeZip(ir::VecType type, int n) {
  if (n < 2 || (n & (n - 1)) != 0) throw std::logic_error("a zip transpose needs a power-of-two tile size >= 2");
  if (type.scalable ? n % type.lanes != 0 : n != type.lanes)
    throw std::logic_error("a " + std::to_string(n) + "x" + std::to_string(n) + " zip transpose needs " +
                           std::to_string(n) + "-lane vectors, not " + ir::toString(type));
  TransposeNetwork net = emptyNetwork(type, n);
  const int elemBits = bitsOf(type.elem);
  std::vector<std::string> cur = net.rows;
  int stages = 0;
  for (int m = n; m > 1; m /= 2) ++stages;
  for (int s = 1; s <= stages; ++s) {
    // After log2(n) perfect shuffles of the rows, vector c holds column c.
    const std::vector<std::string> next = s == stages ? net.cols : numbered(std::string("z").append(std::to_string(s)).append("_"), n);  // not "z" + ...: GCC 12 -Wrestrict false positive (PR105329)
    net.body.push_back(ir::comment("stage " + std::to_string(s) + ": zip1/zip2 vector i with vector i + " +
                                   std::to_string(n / 2)));
    for (int i = 0; i < n / 2; ++i)
      pair(net, next[2 * i], next[2 * i + 1], cur[i], cur[i + n / 2], sh::zip1(elemBits), sh::zip2(elemBits));
    cur = next;
  }
  return net;
}

TransposeNetwork transposeTrn(ir::VecType type, int n) {
  const int w = bitsOf(type.elem);
  if (n < 2 || (n & (n - 1)) != 0 || n != type.lanes || n * w > 128)
    throw std::logic_error("a trn transpose needs an n x n tile of n-lane vectors of at most 128 bits (trn moves units of at "
                           "most 64 bits), not " + std::to_string(n) + " x " + std::to_string(n) + " of " + ir::toString(type));
  TransposeNetwork net = emptyNetwork(type, n);
  const int stages = log2Of(n);
  std::vector<std::string> cur = net.rows;
  for (int s = 1; s <= stages; ++s) {
    // Stage s exchanges bit s-1 of the row index with bit s-1 of the column index.
    const std::vector<std::string> next = stageNames(net, s, stages);
    const int half = 1 << (s - 1), unit = w << (s - 1);
    net.body.push_back(ir::comment("stage " + std::to_string(s) + ": trn1/trn2 of " + std::to_string(unit) +
                                   "-bit units, vector i with vector i + " + std::to_string(half)));
    for (int i = 0; i < n; ++i)
      if ((i & half) == 0) pair(net, next[i], next[i + half], cur[i], cur[i + half], sh::trn1(unit), sh::trn2(unit));
    cur = next;
  }
  return net;
}

TransposeNetwork squareTransposeNetwork(const Target& target, ir::VecType v) {
  if (target.module != LoweringModule::x86) return transposeZip(v, v.lanes);
  return bitsOf(v.elem) == 32 && v.bits() == 256 ? transpose8x8Avx2(v.elem) : transposeNetworkX86(v);
}

}  // namespace simdgen
