// SPDX-License-Identifier: Apache-2.0
#include "plan/transpose_networks.h"

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
  return {type, numbered("row", n), numbered("col", n), {}};
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

}  // namespace

TransposeNetwork transpose16x16Avx512(DType elem) {
  require32Bit(elem, "the AVX-512 16x16 network");
  TransposeNetwork net = emptyNetwork({elem, 16}, 16);
  const auto t1 = numbered("t1_", 16), t2 = numbered("t2_", 16), t3 = numbered("t3_", 16);
  const auto& row = net.rows;
  const auto& col = net.cols;
  net.body.push_back(ir::comment("stage 1: interleave 32-bit lanes of row pairs (unpacklo/hi_epi32)"));
  for (int i = 0; i < 8; ++i) pair(net, t1[2 * i], t1[2 * i + 1], row[2 * i], row[2 * i + 1], sh::unpackLo(32), sh::unpackHi(32));
  net.body.push_back(ir::comment("stage 2: interleave 64-bit lanes (unpacklo/hi_epi64)"));
  for (int i = 0; i < 16; i += 4)
    for (int j = 0; j < 2; ++j)
      pair(net, t2[i + 2 * j], t2[i + 2 * j + 1], t1[i + j], t1[i + j + 2], sh::unpackLo(64), sh::unpackHi(64));
  net.body.push_back(ir::comment("stage 3: gather 128-bit blocks (shuffle_i32x4 0x88 / 0xDD)"));
  for (int i = 0; i < 16; i += 8)
    for (int j = 0; j < 4; ++j)
      pair(net, t3[i + j], t3[i + j + 4], t2[i + j], t2[i + j + 4], sh::lanes128(0x88), sh::lanes128(0xDD));
  net.body.push_back(ir::comment("stage 4: gather 256-bit halves (shuffle_i32x4 0x88 / 0xDD)"));
  for (int j = 0; j < 8; ++j) pair(net, col[j], col[j + 8], t3[j], t3[j + 8], sh::lanes128(0x88), sh::lanes128(0xDD));
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

}  // namespace simdgen
