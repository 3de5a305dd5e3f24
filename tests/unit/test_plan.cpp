// SPDX-License-Identifier: Apache-2.0
// Plan IR, builders, fold networks, targets: structure and error paths.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "ir/plan.h"
#include "ir/simplify.h"
#include "plan/reduce_builder.h"
#include "plan/family.h"
#include "sim/interpreter.h"
#include "sim/lane_sim.h"

using namespace simdgen;

namespace {
KernelSpec rowSpec(DType in, DType out, ReduceOp op) {
  KernelSpec k;
  k.name = "k";
  k.input = in;
  k.output = out;
  k.op = op;
  k.rows = Extent{std::nullopt, "rows"};
  k.cols = Extent{std::nullopt, "cols"};
  return k;
}
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("Index arithmetic prints C expressions with merged terms") {
  using ir::Index;
  Index a = Index::symbol("i").times("stride") + Index::symbol("j") + 64;
  CHECK(a.str() == "i * stride + j + 64");
  CHECK((a - Index::symbol("j")).str() == "i * stride + 64");
  CHECK((Index::symbol("cols") - Index::symbol("j")).str() == "cols - j");
  CHECK(Index::constant(0).str() == "0");
  CHECK((Index::symbol("s", 3) + Index::symbol("s", -3)).str() == "0");
  // Terms in any order, products in any order: symbol terms by name, the constant last.
  Index b;
  b.terms = {{5, {}}, {2, {"z"}}, {1, {"stride", "i"}}, {-1, {}}, {3, {"a"}}, {1, {"i", "stride"}}};
  const Index s = b.simplified();
  CHECK(s.str() == "3 * a + 2 * i * stride + 2 * z + 4");
  REQUIRE(s.terms.size() == 4);
  CHECK(s.terms[1].symbols == std::vector<std::string>{"i", "stride"});
  CHECK(s.terms.back().symbols.empty());
  CHECK(s.terms.back().coef == 4);
  CHECK((Index::symbol("n") + 7 - Index::symbol("n")).str() == "7");
  CHECK((Index::symbol("n") + 7 - Index::constant(7)).terms.size() == 1);
}

TEST_CASE("verify() checks that a convert's mode fits its types, and print names the mode") {
  auto plan = [](DType from, DType to, ConvMode mode) {
    ir::Plan p;
    p.tensors = {{"input", from, false, {}, {}}, {"output", to, true, {}, {}}};
    ir::Stmt a = ir::op(ir::OpKind::Splat, "a", {from, 8});
    a.declare = true;
    a.literal = "0";
    ir::Stmt c = ir::op(ir::OpKind::Convert, "c", {to, 8}, {"a"});
    c.declare = true;
    c.conv = mode;
    p.body = {a, c};
    return p;
  };
  CHECK(plan(DType::f32, DType::i32, ConvMode::nearest).verify().empty());
  CHECK(plan(DType::i32, DType::u32, ConvMode::sat).verify().empty());
  CHECK(plan(DType::i32, DType::f32, ConvMode::plain).verify().empty());
  CHECK(contains(plan(DType::f32, DType::i32, ConvMode::sat).verify().front(), "convert sat needs integers"));
  CHECK(contains(plan(DType::i32, DType::u32, ConvMode::floor).verify().front(), "convert floor rounds a float to an integer"));
  CHECK(contains(plan(DType::f64, DType::f32, ConvMode::trunc).verify().front(), "convert trunc rounds a float to an integer"));
  CHECK(contains(plan(DType::f32, DType::i32, ConvMode::ceil).print(), "convert a ceil"));
}

TEST_CASE("verify() reports undefined, redeclared and mistyped values") {
  ir::Plan p;
  p.tensors = {{"input", DType::i32, false, {}, {}}, {"output", DType::i32, true, {}, {}}};
  ir::Stmt use = ir::op(ir::OpKind::Binary, "acc", {DType::i32, 8}, {"x", "acc"});
  p.body.push_back(use);
  auto problems = p.verify();
  REQUIRE(!problems.empty());
  CHECK(contains(problems.front(), "undefined variable 'x'"));

  ir::Plan q;
  q.tensors = {{"input", DType::i32, false, {}, {}}, {"output", DType::i32, true, {}, {}}};
  ir::Stmt a = ir::op(ir::OpKind::Splat, "acc", {DType::i32, 8});
  a.declare = true;
  a.literal = "0";
  q.body = {a, a};
  CHECK(contains(q.verify().front(), "declared twice"));

  ir::Plan r;
  r.tensors = {{"input", DType::i32, false, {}, {}}, {"output", DType::i32, true, {}, {}}};
  ir::Stmt b = ir::op(ir::OpKind::Splat, "v", {DType::f32, 8});
  b.declare = true;
  b.literal = "0";
  ir::Stmt c = ir::op(ir::OpKind::Binary, "v", {DType::f32, 8}, {"v", "v"});
  c.rop = ReduceOp::bit_xor;
  r.body = {b, c};
  CHECK(contains(r.verify().front(), "not defined on f32x8"));

  ir::Plan s;
  s.tensors = {{"input", DType::i32, false, {}, {}}, {"output", DType::i32, true, {}, {}}};
  ir::Stmt l = ir::op(ir::OpKind::Load, "x", {DType::i32, 8});
  l.declare = true;
  l.index = ir::Index::symbol("nowhere");
  s.body = {l};
  CHECK(contains(s.verify().front(), "unknown symbol 'nowhere'"));
}

TEST_CASE("every built plan verifies and prints its strategy") {
  for (const char* t : {"scalar", "avx2", "avx512"}) {
    ir::Plan p = buildReducePlan(rowSpec(DType::i8, DType::i32, ReduceOp::add), makeTarget({t, {}}));
    CHECK(p.verify().empty());
    CHECK(contains(p.print(), "strategy vector_accumulator"));
  }
}

TEST_CASE("auto schedule: static long rows take accumulators per row, short ones blocks of rows") {
  KernelSpec k = rowSpec(DType::i8, DType::i32, ReduceOp::add);
  k.cols = Extent{512, ""};
  CHECK(!contains(buildReducePlan(k, makeTarget({"avx512", {}})).print(), "reduce_rows"));
  k.cols = Extent{64, ""};
  CHECK(contains(buildReducePlan(k, makeTarget({"avx512", {}})).print(), "reduce_rows"));
  k.cols = Extent{std::nullopt, "cols"};  // decided at run time: both paths
  const std::string text = buildReducePlan(k, makeTarget({"avx512", {}})).print();
  // The threshold: 4 vectors, or 512 bytes (on 512-bit vectors) when the input fits in L1.
  CHECK(contains(text, "short_rows_below : i64 = position 256"));
  CHECK(contains(text, "if cols * rows < 32769"));  // the input fits in L1 (stride = cols here)
  CHECK(contains(text, "short_rows_below = position 512"));
  CHECK(contains(text, "if cols < short_rows_below"));
  CHECK(contains(text, "if short_rows_below - 1 < cols"));
}

TEST_CASE("vector_accumulator on AVX-512 reduces 16 rows through a fold network, then single rows") {
  ir::Plan p = buildReducePlan(rowSpec(DType::i8, DType::i32, ReduceOp::add), makeTarget({"avx512", {"vnni"}}));
  const std::string text = p.print();
  CHECK(contains(text, "for i in [0, rows) step 16"));
  CHECK(contains(text, "dot_accumulate<4>"));
  CHECK(contains(text, "reduce_rows add"));
  CHECK(contains(text, "for i in [i, rows) step 1"));  // remaining rows
  // The predicated tail: one whilelt for the block's rows, governing each row's load.
  CHECK(contains(text, "tail_lanes : mask(i8x64) = whilelt(j, cols)"));
  CHECK(contains(text, "if tail_lanes fill 0"));
}

TEST_CASE("static extents drop cleanup loops that cannot run") {
  KernelSpec k = rowSpec(DType::i8, DType::i32, ReduceOp::add);
  k.rows = Extent{384, ""};
  k.cols = Extent{512, ""};
  k.schedule.rows = 16;  // blocks of rows even though the rows are long
  ir::Plan p = buildReducePlan(k, makeTarget({"avx512", {}}));
  CHECK(!contains(p.print(), "[i, kRows)"));  // 384 = 24 x 16 rows: no remainder loop
  CHECK(!contains(p.print(), "if j < kCols"));  // 512 = 8 x 64: no tail
  k.rows = Extent{385, ""};
  CHECK(contains(buildReducePlan(k, makeTarget({"avx512", {}})).print(), "[i, kRows)"));
}

TEST_CASE("u8 sums use psadbw-style 8-lane groups into u64 and convert once") {
  ir::Plan p = buildReducePlan(rowSpec(DType::u8, DType::u32, ReduceOp::add), makeTarget({"avx2", {}}));
  CHECK(contains(p.print(), "dot_accumulate<8>"));
  CHECK(contains(p.print(), "u64x4"));
  CHECK(contains(p.print(), "convert row_sum"));
}

TEST_CASE("min/max with a wider output reduce narrow and widen once") {
  ir::Plan p = buildReducePlan(rowSpec(DType::i8, DType::i32, ReduceOp::max), makeTarget({"avx512", {}}));
  CHECK(contains(p.print(), "i8x64 = splat -128"));
  CHECK(!contains(p.print(), "extend"));
}

TEST_CASE("builder errors name the problem and the alternatives") {
  KernelSpec k = rowSpec(DType::f32, DType::f32, ReduceOp::add);
  k.cols = Extent{100, ""};
  k.tail = TailPolicy::none;
  try {
    buildReducePlan(k, makeTarget({"avx512", {}}));
    FAIL("expected a PlanError");
  } catch (const PlanError& e) {
    CHECK(contains(e.what(), "cols = 100 is not a multiple of the 16 f32 lanes of avx512"));
    CHECK(contains(e.what(), "predicated"));
  }
  k.cols = Extent{96, ""};
  CHECK_NOTHROW(buildReducePlan(k, makeTarget({"avx512", {}})));

  KernelSpec s = rowSpec(DType::f64, DType::f64, ReduceOp::add);
  s.order = FloatOrder::sequential;
  s.strategy = Strategy::vector_accumulator;
  CHECK_THROWS_WITH_AS(buildReducePlan(s, makeTarget({"avx2", {}})), doctest::Contains("inner_parallel"), PlanError);
  s.strategy = Strategy::automatic;
  CHECK(resolveStrategy(s) == Strategy::inner_parallel);

}

TEST_CASE("runtime extents keep the user's name in the header only: generated names cannot capture them") {
  KernelSpec r = rowSpec(DType::i32, DType::i32, ReduceOp::add);
  r.rows = Extent{std::nullopt, "j"};
  r.cols = Extent{std::nullopt, "acc0"};
  r.rowStride = Extent{std::nullopt, "i"};
  for (const char* isa : {"scalar", "avx2", "avx512"}) {
    const ir::Plan p = buildReducePlan(r, makeTarget({isa, {}}));
    CHECK(p.verify().empty());
    REQUIRE(p.params.size() == 5);
    CHECK(p.params[1].name == "rows");
    CHECK(p.params[1].publicName == "j");
    CHECK(p.params[2].name == "cols");
    CHECK(p.params[2].publicName == "acc0");
    CHECK(p.params[3].name == "stride");
    CHECK(p.params[3].publicName == "i");
    CHECK(p.params[4].name == "output");
  }
}

TEST_CASE("verify() refuses a local that shadows a parameter") {
  ir::Plan p;
  p.tensors = {{"input", DType::i32, false, {}, {}}};
  p.params = {{ir::Param::Kind::tensor, "input", "input", "input", ""}, {ir::Param::Kind::extent, "n", "n", "", ""}};
  ir::Stmt a = ir::op(ir::OpKind::Splat, "n", {DType::i32, 8});
  a.declare = true;
  a.literal = "0";
  p.body = {a};
  REQUIRE(!p.verify().empty());
  CHECK(contains(p.verify().front(), "shadows a parameter"));
}

TEST_CASE("let declares a loop variable that loops inside an if continue") {
  // out[0..n) = 7 in steps of 4 when n > 3, then one at a time: the shape of the x86 map loops.
  ir::Plan p;
  p.tensors = {{"out", DType::i32, true, {ir::Index::symbol("n")}, {ir::Index::constant(1)}}};
  p.params = {{ir::Param::Kind::extent, "n", "n", "", ""}, {ir::Param::Kind::tensor, "out", "out", "out", ""}};
  auto store = [](int lanes) {
    ir::Block b;
    ir::Stmt v = ir::op(ir::OpKind::Splat, "seven" + std::to_string(lanes), {DType::i32, lanes});
    v.declare = true;
    v.literal = "7";
    ir::Stmt st = ir::op(ir::OpKind::Store, "", {DType::i32, lanes}, {v.dst});
    st.tensor = "out";
    st.index = ir::Index::symbol("i");
    return ir::Block{v, st};
  };
  ir::Block guarded{ir::forLoop("i", {}, ir::Index::symbol("n"), 4, store(4), true)};
  p.body = {ir::letIndex("i", ir::Index::constant(0)), ir::ifLess(ir::Index::constant(3), ir::Index::symbol("n"), guarded),
            ir::forLoop("i", {}, ir::Index::symbol("n"), 1, store(1), true)};
  REQUIRE(p.verify().empty());
  CHECK(contains(p.print(), "let i = 0"));
  for (int64_t n : {0, 1, 3, 4, 5, 9}) {
    std::vector<int32_t> out(size_t(n) + 1, -1);
    sim::runPlan(p, {{"n", n}}, std::vector<sim::Buffer>{{"out", nullptr, out.data(), size_t(n)}});
    for (int64_t k = 0; k < n; ++k) CHECK(out[size_t(k)] == 7);
    CHECK(out[size_t(n)] == -1);
  }
  // Static n: n = 2 drops the if (i stays 0, the one-at-a-time loop stays); n = 8 inlines it and
  // then knows i = 8, so the last loop goes; n = 9 keeps it.
  auto simplified = [&](int64_t n) {
    ir::Plan q = p;
    q.params.erase(q.params.begin());
    q.constants = {{"n", n}};
    ir::removeDeadLoops(q);
    REQUIRE(q.verify().empty());
    return q.print();
  };
  CHECK(!contains(simplified(2), "if "));
  CHECK(contains(simplified(2), "step 1"));
  CHECK(!contains(simplified(8), "step 1"));
  CHECK(contains(simplified(9), "step 1"));
  // A runtime condition: after the if, i is unknown. A tail test `i < n` after it must stay, although
  // i = 0 before the if would make it always true for the static n = 4.
  ir::Plan r = p;
  r.params.front() = {ir::Param::Kind::extent, "m", "m", "", ""};
  r.constants = {{"n", 4}};
  r.body[1].cmpRhs = ir::Index::symbol("m");
  r.body[2] = ir::ifLess(ir::Index::symbol("i"), ir::Index::symbol("n"), store(1));
  REQUIRE(r.verify().empty());
  ir::removeDeadLoops(r);
  CHECK(contains(r.print(), "if i < n"));
  // A second declaration, or one shadowing a parameter, is refused.
  ir::Plan twice = p;
  twice.body.push_back(ir::letIndex("i", ir::Index::constant(0)));
  CHECK(!twice.verify().empty());
  ir::Plan shadow = p;
  shadow.body.insert(shadow.body.begin(), ir::letIndex("n", ir::Index::constant(0)));
  CHECK(!shadow.verify().empty());
}

TEST_CASE("removeDeadValues drops values nothing reads, with their updates, and keeps stores") {
  // out[0..n) = kept; beside it: a let nothing reads, an accumulator only its own update reads
  // (and the value only that update reads), a value in an if whose body then is empty. Static
  // extents leave such values behind, and -Wunused-variable turns each into an error.
  ir::Plan p;
  p.tensors = {{"out", DType::i32, true, {ir::Index::symbol("n")}, {ir::Index::constant(1)}}};
  p.params = {{ir::Param::Kind::extent, "n", "n", "", ""}, {ir::Param::Kind::tensor, "out", "out", "out", ""}};
  auto splat = [](const std::string& name, const char* value) {
    ir::Stmt v = ir::op(ir::OpKind::Splat, name, {DType::i32, 1});
    v.declare = true;
    v.literal = value;
    return v;
  };
  ir::Stmt update = ir::op(ir::OpKind::Binary, "dead_acc", {DType::i32, 1}, {"dead_acc", "dead_src"});
  ir::Stmt store = ir::op(ir::OpKind::Store, "", {DType::i32, 1}, {"kept"});
  store.tensor = "out";
  store.index = ir::Index::symbol("i");
  p.body = {ir::letIndex("dead_let", ir::Index::symbol("n")),
            splat("kept", "5"),
            splat("dead_acc", "0"),
            splat("dead_src", "1"),
            ir::letIndex("i", ir::Index::constant(0)),
            ir::forLoop("i", {}, ir::Index::symbol("n"), 1, {update, store}, true),
            ir::ifLess(ir::Index::constant(0), ir::Index::symbol("n"), {splat("dead_in_if", "2")})};
  REQUIRE(p.verify().empty());
  ir::Plan q = p;
  ir::removeDeadValues(q);
  REQUIRE(q.verify().empty());
  const std::string text = q.print();
  CAPTURE(text);
  CHECK(!contains(text, "dead_"));
  CHECK(!contains(text, "if "));
  CHECK(contains(text, "kept"));
  CHECK(contains(text, "let i = 0"));  // the loop continues from it
  for (const ir::Plan* plan : {&p, &q}) {
    std::vector<int32_t> out(4, -1);
    sim::runPlan(*plan, {{"n", 3}}, std::vector<sim::Buffer>{{"out", nullptr, out.data(), 3}});
    CHECK(out == std::vector<int32_t>{5, 5, 5, -1});
  }
}

TEST_CASE("target factory: attributes, CPU checks, capabilities, errors") {
  Target v = makeTarget({"avx512", {"vnni"}});
  CHECK(v.suffix == "avx512_vnni");
  CHECK(contains(v.attribute, "avx512vnni"));
  CHECK(contains(v.cpuCheck, "__builtin_cpu_supports(\"avx512vnni\")"));
  CHECK(v.lanes(DType::i8) == 64);
  CHECK(v.dot(DType::i8, DType::i32)->group == 4);
  CHECK(contains(v.dot(DType::i8, DType::i32)->instruction, "vpdpbusd"));
  CHECK(contains(makeTarget({"avx2", {}}).dot(DType::i8, DType::i32)->instruction, "vpmaddubsw"));
  CHECK(!makeTarget({"scalar", {}}).dot(DType::i8, DType::i32));
  CHECK(!v.dot(DType::f32, DType::f64));
  // Two Arm features: one arch= item (GCC ignores an attribute with two), both CPU checks.
  CHECK(makeTarget({"neon", {"i8mm"}}).attribute == "arch=armv8.2-a+i8mm");
  const Target arm = makeTarget({"neon", {"dotprod", "i8mm"}});
  CHECK(arm.attribute == "arch=armv8.2-a+dotprod+i8mm");
  CHECK(contains(arm.cpuCheck, "HWCAP_ASIMDDP"));
  CHECK(contains(arm.cpuCheck, "HWCAP2_I8MM"));
  CHECK(makeTarget({"avx512", {"gfni", "vnni"}}).attribute == "avx512f,avx512bw,avx512dq,avx512vl,bmi2,fma,gfni,avx512vnni");
  CHECK_THROWS_WITH(makeTarget({"avx2", {"vnni"}}), doctest::Contains("allowed: avx_vnni, fma"));
  CHECK_THROWS_WITH(makeTarget({"sse9", {}}), doctest::Contains("allowed: scalar, avx2, avx512"));
}

TEST_CASE("fold networks never mix rows and land row r in lane r") {
  for (int elemBits : {32, 64})
    for (int lanes = 2; lanes <= 16; lanes *= 2) {
      if (lanes * elemBits > 512) continue;
      ir::FoldNetwork n = ir::FoldNetwork::make(lanes, elemBits);
      std::vector<int> order = n.inputOrder;
      std::sort(order.begin(), order.end());
      for (int r = 0; r < lanes; ++r) CHECK(order[r] == r);  // a permutation
      CHECK(sim::foldLaneTable(n).size() == n.blockLanes.size());
    }
  // The 128-bit, 4 x i32 case by hand: unpack-64 stage then shuffle_ps stage, rows stay in order.
  ir::FoldNetwork n = ir::FoldNetwork::make(4, 32);
  CHECK(n.inputOrder == std::vector<int>{0, 1, 2, 3});
  CHECK(sim::foldLaneTable(n).back() == "stage 2, 2-lane blocks: r0 r1 r2 r3");
  // Each stage is rop(lower(a, b), upper(a, b)) through named shuffles (indices into concat(a, b)).
  const ir::FoldNetwork n16 = ir::FoldNetwork::make(16, 32);
  const auto [lo0, hi0] = n16.stage(0);  // whole-vector blocks: shuffle_i32x4 0x44 / 0xEE
  CHECK(lo0.str() == "lanes128 0x44");
  CHECK(hi0.str() == "lanes128 0xEE");
  const std::vector<int> lo = lo0.laneMap(16, 32), hi = hi0.laneMap(16, 32);
  CHECK(lo[0] == 0);    // lane 0 = a[0] op a[8]
  CHECK(hi[0] == 8);
  CHECK(lo[7] == 7);    // lane 7 = a[7] op a[15]
  CHECK(hi[7] == 15);
  CHECK(lo[8] == 16);   // lane 8 = b[0] op b[8]
  CHECK(hi[8] == 24);
  CHECK(n16.stage(1).first.str() == "lanes128 0x88");
  CHECK(n16.stage(2).first.str() == "unpack_lo.64");
  CHECK(n16.stage(3).second.str() == "shuffle_ps 0xDD");
  // A simulation width with no x86 instruction (2048 bits) falls back to explicit maps.
  CHECK(ir::FoldNetwork::make(64, 32).stage(0).first.kind == ir::Shuffle::Kind::explicit_map);
}

TEST_CASE("the interpreter rejects reads past the input") {
  ir::Plan p;
  p.tensors = {{"input", DType::i32, false, {}, {}}, {"output", DType::i32, true, {}, {}}};
  ir::Stmt l = ir::op(ir::OpKind::Load, "x", {DType::i32, 8});
  l.declare = true;
  l.index = ir::Index::constant(4);
  p.body = {l};
  std::vector<int32_t> in(11), out(1);
  CHECK_THROWS_AS(sim::runPlan(p, {}, in.data(), in.size(), out.data(), out.size()), sim::OutOfBounds);
  std::vector<int32_t> in12(12);
  CHECK_NOTHROW(sim::runPlan(p, {}, in12.data(), in12.size(), out.data(), out.size()));
}

#include "plan/family.h"

TEST_CASE("arg_reduce plans: the compare follows first/last and min/max, rescans only improving blocks") {
  KernelSpec k = rowSpec(DType::f32, DType::f32, ReduceOp::max);
  k.kind = KernelKind::arg_reduce;
  const std::pair<bool, const char*> cases[] = {{false, "if block_best > best"}, {true, "if block_best >= best"}};
  for (auto [last, cmp] : cases) {
    k.lastIndex = last;
    const std::string text = buildPlan(k, makeTarget({"avx512", {}})).print();
    CHECK(contains(text, cmp));
    CHECK(contains(text, last ? "locate_last" : "locate_first"));
    CHECK(contains(text, "reduce_lanes max"));
    CHECK(contains(text, "for blk in [0, cols) step 2048"));  // 8 KiB of f32
  }
  k.op = ReduceOp::min;
  k.lastIndex = true;
  CHECK(contains(buildPlan(k, makeTarget({"avx2", {}})).print(), "if block_best <= best"));
  k.nan = NanPolicy::propagate;
  const std::string prop = buildPlan(k, makeTarget({"avx2", {}})).print();
  CHECK(contains(prop, "nan_mask"));
  CHECK(contains(prop, "locate_first_nan"));
}

TEST_CASE("arg_reduce plans verify for every dtype, op, index, NaN policy, tail and target") {
  for (DType t : kAllDTypes)
    for (ReduceOp op : {ReduceOp::min, ReduceOp::max})
      for (bool last : {false, true})
        for (TailPolicy tail : {TailPolicy::predicated, TailPolicy::scalar}) {
          KernelSpec k = rowSpec(t, t, op);
          k.kind = KernelKind::arg_reduce;
          k.lastIndex = last;
          k.tail = tail;
          k.nan = isFloat(t) && last ? NanPolicy::propagate : NanPolicy::ignore;
          for (const char* isa : {"scalar", "avx2", "avx512"}) CHECK(buildPlan(k, makeTarget({isa, {}})).verify().empty());
          CHECK(buildPlan(k, makeGenericTarget(2048)).verify().empty());
        }
}
