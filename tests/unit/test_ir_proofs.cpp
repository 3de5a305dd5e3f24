// SPDX-License-Identifier: Apache-2.0
// Proof that the plan IR carries the next families: plans written directly (no spec, no builder),
// printed, verified and run in the interpreter at 128..2048 bits against independent scalar loops.
//   1. seed 001: B[i] = A[i] * 2 as one vector-length-agnostic loop governed by whilelt.
//   2. a register-tiled f32 GEMM micro-kernel (5 x 4 vectors, one broadcast and four FMAs per
//      element of A) with the bias as the accumulators' initial value and ReLU before the store.
//   3. the two orders of a horizontal float sum (halves; adjacent lanes first, Arm's faddv).
//   4. the two bf16 pair dot products: x86 vdpbf16ps (rounded to nearest) and Arm bfdot (rounded
//      to odd), on values where the roundings differ.
// (The seed 004 transpose network is proven in test_shuffle.cpp.)
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "ir/bf16_reference.h"
#include "ir/proof_plans.h"
#include "sim/interpreter.h"

using namespace simdgen;
using ir::Index;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

namespace {

using namespace proof_plans;

// ---- 1. seed 001 ------------------------------------------------------------------------------

TEST_CASE("seed 001: B[i] = A[i] * 2 as one predicated loop, correct at every vector length") {
  const ir::Plan vla = timesTwo(0);
  REQUIRE(vla.verify().empty());
  const std::string text = vla.print();
  CHECK(contains(text, "vector-length agnostic"));
  CHECK(contains(text, "for i in [0, n) step 4 * vscale covering the tail"));
  CHECK(contains(text, "active : mask(f32 x vscale*4) = whilelt(i, n)"));
  CHECK(contains(text, "x : f32 x vscale*4 = load a[i] if active"));
  CHECK(contains(text, "store b[i] = y if active"));

  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1e30f, 1e30f);
  for (int bits : {0, 128, 256, 512, 1024, 2048}) {
    const ir::Plan plan = bits ? timesTwo(bits) : vla;
    REQUIRE(plan.verify().empty());
    for (int vscale : bits ? std::vector<int>{1} : std::vector<int>{1, 2, 4, 8, 16}) {
      for (int64_t n = 0; n <= 300; ++n) {
        CAPTURE(bits);
        CAPTURE(vscale);
        CAPTURE(n);
        std::vector<float> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), -7.0f);
        for (auto& x : a) x = dist(rng);
        if (n > 2) a[1] = std::nanf(""), a[2] = 3e38f;  // NaN stays NaN, overflow gives inf
        // Buffers hold exactly n elements: any access past them throws OutOfBounds.
        sim::runPlan(plan, {{"n", n}}, {{"a", a.data(), nullptr, a.size()}, {"b", nullptr, b.data(), b.size()}}, vscale);
        bool same = true;
        for (int64_t k = 0; k < n; ++k) {
          const float want = a[size_t(k)] * 2.0f;
          same = same && (std::memcmp(&want, &b[size_t(k)], sizeof want) == 0 || (want != want && b[size_t(k)] != b[size_t(k)]));
        }
        CHECK(same);
      }
    }
  }
}

TEST_CASE("a predicated load never reads its inactive lanes - merging and zeroing arithmetic") {
  const VecType v{DType::i32, 8};
  ir::Plan p;
  p.tensors = {{"in", DType::i32, false, {}, {}}, {"out", DType::i32, true, {}, {}}};
  p.body.push_back(whileLt("first3", v, Index::constant(0), Index::constant(3)));
  Stmt load = access(OpKind::Load, "x", v, "in", Index::constant(0), "first3");
  load.literal = "-1";
  p.body.push_back(load);
  Stmt ten = declare(OpKind::Splat, "ten", v);
  ten.literal = "10";
  p.body.push_back(ten);
  Stmt merged = declare(OpKind::Binary, "m", v, {"x", "ten"});
  merged.pred = "first3";
  Stmt zeroed = merged;
  zeroed.dst = "z";
  zeroed.zeroing = true;
  p.body.push_back(merged);
  p.body.push_back(zeroed);
  p.body.push_back(store("out", "m", v, Index::constant(0), ""));
  p.body.push_back(store("out", "z", v, Index::constant(8), ""));
  REQUIRE(p.verify().empty());
  std::vector<int32_t> in{1, 2, 3}, out(16);
  sim::runPlan(p, {}, {{"in", in.data(), nullptr, in.size()}, {"out", nullptr, out.data(), out.size()}});
  CHECK(out == std::vector<int32_t>{11, 12, 13, -1, -1, -1, -1, -1, 11, 12, 13, 0, 0, 0, 0, 0});
}

TEST_CASE("predicates as values: compare, and/or/not, select, predicated reduction") {
  const VecType v{DType::f32, 4};
  ir::Plan p;
  p.tensors = {{"in", DType::f32, false, {}, {}}, {"out", DType::f32, true, {}, {}}};
  p.body.push_back(access(OpKind::Load, "x", v, "in", Index::constant(0)));
  Stmt zero = declare(OpKind::Splat, "zero", v);
  zero.literal = "0.0f";
  p.body.push_back(zero);
  Stmt positive = declare(OpKind::Compare, "positive", v.mask(), {"x", "zero"});
  positive.cmp = ir::Cmp::gt;
  p.body.push_back(positive);
  p.body.push_back(whileLt("first3", v, Index::constant(0), Index::constant(3)));
  Stmt both = declare(OpKind::Binary, "both", v.mask(), {"positive", "first3"});
  both.rop = ReduceOp::bit_and;
  p.body.push_back(both);
  p.body.push_back(declare(OpKind::Not, "neither", v.mask(), {"both"}));
  p.body.push_back(declare(OpKind::Select, "relu_first3", v, {"both", "x", "zero"}));
  Stmt sum = declare(OpKind::ReduceLanes, "sum_rest", {DType::f32, 1}, {"x"});
  sum.pred = "neither";
  p.body.push_back(sum);
  p.body.push_back(store("out", "relu_first3", v, Index::constant(0), ""));
  p.body.push_back(store("out", "sum_rest", {DType::f32, 1}, Index::constant(4), ""));
  REQUIRE(p.verify().empty());
  // NaN compares false: lane 2 is not positive.
  std::vector<float> in{-1.0f, 2.0f, std::nanf(""), 5.0f}, out(5);
  sim::runPlan(p, {}, {{"in", in.data(), nullptr, in.size()}, {"out", nullptr, out.data(), out.size()}});
  CHECK(out[0] == 0.0f);
  CHECK(out[1] == 2.0f);
  CHECK(out[2] == 0.0f);
  CHECK(out[3] == 0.0f);            // lane 3 is past first3
  CHECK(std::isnan(out[4]));        // -1 + NaN + 5: lanes 0, 2, 3 are "neither"
}

TEST_CASE("verify() refuses predicates of the wrong shape and predicates made by data ops") {
  const VecType v{DType::f32, 8};
  ir::Plan p;
  p.tensors = {{"in", DType::f32, false, {}, {}}};
  p.body.push_back(whileLt("p4", {DType::f32, 4}, Index::constant(0), Index::constant(3)));
  p.body.push_back(access(OpKind::Load, "x", v, "in", Index::constant(0), "p4"));
  auto problems = p.verify();
  REQUIRE(!problems.empty());
  CHECK(contains(problems.front(), "predicate p4 : mask(f32x4) does not govern f32x8"));

  ir::Plan q;
  q.tensors = p.tensors;
  q.body.push_back(access(OpKind::Load, "m", v.mask(), "in", Index::constant(0)));
  REQUIRE(!q.verify().empty());
  CHECK(contains(q.verify().front(), "a predicate cannot be made by load"));
}

// ---- 2. register-tiled GEMM micro-kernel -----------------------------------------------------

TEST_CASE("register-tiled GEMM micro-kernel with bias and ReLU: 5 x 4 vectors, sizes that divide no tile") {
  const ir::Plan p512 = gemm(512);
  REQUIRE(p512.verify().empty());
  const std::string text = p512.print();
  CHECK(contains(text, "for i in [0, m) step 5"));
  CHECK(contains(text, "for j in [0, n) step 64 covering the tail"));
  CHECK(contains(text, "a0 : f32x16 = load_broadcast a[i * kk + k]"));
  CHECK(contains(text, "acc4_3 = fma acc4_3, a4, b3"));
  CHECK(contains(text, "acc0_0 : f32x16 = load bias[j] if in_n0"));

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (int bits : {128, 256, 512, 1024, 2048, 0}) {
    const ir::Plan plan = bits == 512 ? p512 : gemm(bits);
    REQUIRE(plan.verify().empty());
    for (int vscale : bits ? std::vector<int>{1} : std::vector<int>{1, 2, 4, 8, 16})
      for (int64_t m : {1, 4, 5, 6, 11})
        for (int64_t n : {1, 15, 17, 63, 65, 130})
          for (int64_t kk : {1, 3, 7}) {
            CAPTURE(bits);
            CAPTURE(vscale);
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(kk);
            std::vector<float> a(static_cast<size_t>(m * kk)), b(static_cast<size_t>(kk * n)), bias(static_cast<size_t>(n)),
                c(static_cast<size_t>(m * n), 99.0f);
            for (auto* v : {&a, &b, &bias})
              for (auto& x : *v) x = dist(rng);
            sim::runPlan(plan, {{"m", m}, {"n", n}, {"kk", kk}},
                         {{"a", a.data(), nullptr, a.size()},
                          {"b", b.data(), nullptr, b.size()},
                          {"bias", bias.data(), nullptr, bias.size()},
                          {"c", nullptr, c.data(), c.size()}},
                         vscale);
            CHECK(c == gemmReference(a, b, bias, m, n, kk));
          }
  }
}


// ---- 3. the order of a horizontal sum -----------------------------------------------------------

TEST_CASE("reduce_lanes folds by halves, or adjacent lanes first when pairwise (faddv's tree)") {
  // f32: 1e8 + 1 rounds to 1e8, so the order shows. Halves: (1e8 + -1e8) + (1 + 1) = 2;
  // pairwise: (1e8 + 1) + (-1e8 + 1) = 0. Inactive lanes (n < 4) count as +0.0.
  struct Case {
    std::vector<float> a;
    float halves, pairwise;
  };
  const Case cases[] = {{{1e8f, 1.0f, -1e8f, 1.0f}, 2.0f, 0.0f}, {{1e8f, 1.0f, -1e8f}, 1.0f, 0.0f}, {{-0.0f}, 0.0f, 0.0f}};
  for (const Case& c : cases)
    for (bool pairwise : {false, true}) {
      CAPTURE(c.a.size());
      CAPTURE(pairwise);
      const ir::Plan plan = laneSum(DType::f32, 128, pairwise);
      REQUIRE(plan.verify().empty());
      CHECK(contains(plan.print(), pairwise ? "reduce_lanes_pairwise add x if active" : "reduce_lanes add x if active"));
      std::vector<float> a = c.a, total(1, 7.0f);
      sim::runPlan(plan, {{"n", int64_t(a.size())}}, {{"a", a.data(), nullptr, a.size()}, {"total", nullptr, total.data(), 1}}, 1);
      const float want = pairwise ? c.pairwise : c.halves;
      CHECK(std::memcmp(&total[0], &want, sizeof want) == 0);
    }
  // At every scalable length the pairwise fold of 1, 2, 3, ... is their exact sum (small integers).
  for (int vscale : {1, 2, 4, 8, 16}) {
    const ir::Plan plan = laneSum(DType::f64, 0, true);
    std::vector<double> a(size_t(2 * vscale)), total(1, 0.0);
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(i + 1);
    sim::runPlan(plan, {{"n", int64_t(a.size())}}, {{"a", a.data(), nullptr, a.size()}, {"total", nullptr, total.data(), 1}}, vscale);
    CHECK(total[0] == double(a.size() * (a.size() + 1) / 2));
  }
}

// One lane per case: acc + the pair (b0 * c0, b1 * c1) through `kind`, out = the result's bits.
std::vector<float> dotBf16Lanes(OpKind kind, const std::vector<float>& acc, const std::vector<uint32_t>& b, const std::vector<uint32_t>& c) {
  const VecType f{DType::f32, int(acc.size())}, u{DType::u32, int(acc.size())};
  ir::Plan p;
  p.kernel = "dot_bf16_lanes";
  setVectorLength(p, 32 * int(acc.size()));
  const Index n = Index::constant(int64_t(acc.size())), one = Index::constant(1);
  p.tensors = {{"acc", DType::f32, false, {n}, {one}}, {"b", DType::u32, false, {n}, {one}}, {"c", DType::u32, false, {n}, {one}},
               {"out", DType::f32, true, {n}, {one}}};
  for (const char* t : {"acc", "b", "c", "out"}) p.params.push_back({ir::Param::Kind::tensor, t, t, t, ""});
  const Index at = Index::constant(0);
  p.body = {access(OpKind::Load, "x", f, "acc", at), access(OpKind::Load, "y", u, "b", at), access(OpKind::Load, "z", u, "c", at),
            declare(kind, "d", f, {"x", "y", "z"}), store("out", "d", f, at, "")};
  REQUIRE(p.verify().empty());
  std::vector<float> out(acc.size(), 7.0f);
  sim::runPlan(p, {}, {{"acc", acc.data(), nullptr, acc.size()}, {"b", b.data(), nullptr, b.size()}, {"c", c.data(), nullptr, c.size()},
                       {"out", nullptr, out.data(), out.size()}});
  return out;
}

TEST_CASE("bf16 pair dot products: vdpbf16ps rounds to nearest even, bfdot rounds to odd, both flush subnormals") {
  // A pair of bf16 bits: the even step in the low half. bf16 2^e is the f32 2^e's upper 16 bits.
  auto pow2 = [](int e) { return uint32_t(127 + e) << 7; };
  auto pair = [](uint32_t even, uint32_t odd) { return even | odd << 16; };
  const uint32_t one = pow2(0), zero = 0;
  const float fltMax = std::numeric_limits<float>::max(), fltMin = std::numeric_limits<float>::min();
  // Lane 0: 1 + 2^-12 * 2^-12 = 1 + 2^-24, half an ulp of 1: nearest-even 1, odd 1 + 2^-23.
  // Lane 1: FLT_MAX + 2^52 * 2^51 = FLT_MAX + 2^103 (half its ulp, below 2^128): nearest-even
  //   overflows to infinity, odd truncates to FLT_MAX (its last bit already odd).
  // Lane 2: 0 + 2^-65 * 2^-65 = 2^-130, below the smallest normal: flushed to zero by both.
  // Lane 3: the pair 2^-24 + 2^-24 * ... : 1 + (2^-25 + 2^-25) = 1 + 2^-24 for bfdot's pair-first
  //   sum (rounded to odd: 1 + 2^-23), while vdpbf16ps adds 2^-25 to 1 twice (1, then 1).
  const std::vector<float> acc{1.0f, fltMax, 0.0f, 1.0f};
  const std::vector<uint32_t> b{pair(pow2(-12), zero), pair(pow2(52), zero), pair(pow2(-65), zero), pair(pow2(-25), pow2(-25))};
  const std::vector<uint32_t> c{pair(pow2(-12), zero), pair(pow2(51), zero), pair(pow2(-65), zero), pair(one, one)};
  const float onePlusUlp = std::nextafter(1.0f, 2.0f);
  const std::vector<float> nearest = dotBf16Lanes(OpKind::DotBf16, acc, b, c), odd = dotBf16Lanes(OpKind::DotBf16Odd, acc, b, c);
  CHECK(nearest[0] == 1.0f);
  CHECK(odd[0] == onePlusUlp);
  CHECK(std::isinf(nearest[1]));
  CHECK(odd[1] == fltMax);
  CHECK(nearest[2] == 0.0f);
  CHECK(odd[2] == 0.0f);
  CHECK(nearest[3] == 1.0f);
  CHECK(odd[3] == onePlusUlp);
  // A subnormal accumulator reads as zero in both (vdpbf16ps's DAZ applies to it too, measured on
  // a Zen 5 by ir_exec's bit-for-bit test): FLT_MIN / 2 + FLT_MIN * 1 = FLT_MIN, not 1.5 FLT_MIN.
  const std::vector<float> subnormalAcc = dotBf16Lanes(OpKind::DotBf16, {fltMin / 2, 0, 0, 0}, {pair(pow2(-126), zero), 0, 0, 0}, {pair(one, zero), 0, 0, 0});
  CHECK(subnormalAcc[0] == fltMin);
  // bfdot: 2^-127 + 2^-100 * 1 = 2^-100 exactly.
  const std::vector<float> tiny = dotBf16Lanes(OpKind::DotBf16Odd, {fltMin / 2, 0, 0, 0}, {pair(pow2(-100), zero), 0, 0, 0}, {pair(one, zero), 0, 0, 0});
  CHECK(tiny[0] == std::ldexp(1.0f, -100));

  // Both ops on every lane of the bit-for-bit test of the lowered kernels (tests/ir), against its
  // reference written from the instructions' documentation, through a whilelt loop at 512 bits.
  const bf16_reference::Lanes lanes = bf16_reference::testLanes();
  for (bool odd : {false, true}) {
    CAPTURE(odd);
    std::vector<float> out(lanes.acc.size(), -7.0f);
    sim::runPlan(dotBf16(512, odd), {{"n", int64_t(out.size())}},
                 {{"acc", lanes.acc.data(), nullptr, out.size()}, {"b", lanes.b.data(), nullptr, out.size()},
                  {"c", lanes.c.data(), nullptr, out.size()}, {"out", nullptr, out.data(), out.size()}});
    for (size_t i = 0; i < out.size(); ++i) {
      const float want = odd ? bf16_reference::bfdotLane(lanes.acc[i], lanes.b[i], lanes.c[i])
                             : bf16_reference::vdpbf16psLane(lanes.acc[i], lanes.b[i], lanes.c[i]);
      CHECK_MESSAGE((std::isnan(want) ? std::isnan(out[i]) : bf16_reference::floatBits(out[i]) == bf16_reference::floatBits(want)),
                    "lane " << i << ": interpreter " << out[i] << ", reference " << want);
    }
  }
}

}  // namespace
