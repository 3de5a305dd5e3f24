// SPDX-License-Identifier: Apache-2.0
// Partial vectors are predicated ops: the interpreter honours `in_bounds`, and the x86 module
// writes whilelt predicates at their uses only where nothing in between changes what they read.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "emit/emitter.h"
#include "ir/plan.h"
#include "sim/interpreter.h"
#include "targets/target.h"

using namespace simdgen;

namespace {

ir::Stmt declared(ir::OpKind k, const std::string& dst, ir::VecType t, std::vector<std::string> args = {}) {
  ir::Stmt s = ir::op(k, dst, t, std::move(args));
  s.declare = true;
  return s;
}

ir::Stmt whileLt(const std::string& dst, ir::VecType t, ir::Index lo, ir::Index hi) {
  ir::Stmt s = declared(ir::OpKind::WhileLt, dst, t.mask());
  s.lo = std::move(lo);
  s.hi = std::move(hi);
  return s;
}

ir::Stmt maskedLoad(const std::string& dst, ir::VecType t, ir::Index at, const std::string& pred, bool inBounds = false) {
  ir::Stmt s = declared(ir::OpKind::Load, dst, t);
  s.index = std::move(at);
  s.pred = pred;
  s.literal = "0";
  s.inBounds = inBounds;
  return s;
}

ir::Plan onePlan(DType t) {
  ir::Plan p;
  p.tensors = {{"input", t, false, {}, {}}, {"output", t, true, {}, {}}};
  return p;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a predicated load reads only its active lanes, an in_bounds one may read them all") {
  const ir::VecType v{DType::i32, 8};
  ir::Plan p = onePlan(DType::i32);
  // Lanes 0..6 of the vector at element 4: elements 4..10 exist, element 11 does not.
  p.body = {whileLt("p", v, ir::Index::constant(0), ir::Index::constant(7)), maskedLoad("x", v, ir::Index::constant(4), "p")};
  std::vector<int32_t> in(11), out(1);
  CHECK_NOTHROW(sim::runPlan(p, {}, in.data(), in.size(), out.data(), out.size()));
  p.body[1].inBounds = true;  // a false promise: lane 7 would read element 11
  CHECK_THROWS_AS(sim::runPlan(p, {}, in.data(), in.size(), out.data(), out.size()), sim::OutOfBounds);
  std::vector<int32_t> in12(12);
  CHECK_NOTHROW(sim::runPlan(p, {}, in12.data(), in12.size(), out.data(), out.size()));
  // A whilelt promised partial (0 < hi - lo < lanes) is checked: 8 of 8 lanes breaks the promise.
  p.body = {whileLt("p", v, ir::Index::constant(0), ir::Index::constant(7)), maskedLoad("x", v, ir::Index::constant(0), "p")};
  p.body[0].partialOnly = true;
  CHECK_NOTHROW(sim::runPlan(p, {}, in12.data(), in12.size(), out.data(), out.size()));
  p.body[0].hi = ir::Index::constant(8);
  CHECK_THROWS_AS(sim::runPlan(p, {}, in12.data(), in12.size(), out.data(), out.size()), std::logic_error);
  // in_bounds without a predicate promises nothing and is refused.
  p.body = {maskedLoad("x", v, ir::Index::constant(0), "", true)};
  CHECK(!p.verify().empty());
}

TEST_CASE("x86 writes a whilelt at its uses only while what it reads stays the same") {
  const ir::VecType v{DType::i8, 32};
  ir::Plan p = onePlan(DType::i8);
  p.params = {{ir::Param::Kind::tensor, "input", "input", "input", ""},
              {ir::Param::Kind::extent, "n", "n", "", ""},
              {ir::Param::Kind::tensor, "output", "output", "output", ""}};
  p.tensors[0].extents = {ir::Index::symbol("n")};
  p.tensors[0].strides = {ir::Index::constant(1)};
  p.tensors[1].extents = {ir::Index::constant(32)};
  p.tensors[1].strides = {ir::Index::constant(1)};
  const Target avx2 = makeTarget({"avx2", {}});
  auto body = [&](bool moveJ) {
    ir::Block b;
    b.push_back(ir::forLoop("j", ir::Index::constant(0), ir::Index::symbol("n"), 32, {}));
    b.push_back(whileLt("tail_lanes", v, ir::Index::symbol("j"), ir::Index::symbol("n")));
    if (moveJ) b.push_back(ir::forLoop("j", {}, ir::Index::symbol("n"), 1, {}, true));  // j moves on
    b.push_back(maskedLoad("x", v, ir::Index::symbol("j"), "tail_lanes"));
    ir::Stmt st = ir::op(ir::OpKind::Store, "", v, {"x"});
    st.index = ir::Index::constant(0);
    b.push_back(st);
    return b;
  };
  p.body = body(false);
  REQUIRE(p.verify().empty());
  const std::string inlined = emit::emitFunction(p, avx2, "k").function;
  CHECK(!contains(inlined, "tail_lanes"));  // no variable: the load reads the prefix piecewise
  CHECK(contains(inlined, "simdgen_load_prefix32(input + j, (simdgen_clamp_lanes(n - j, 32)) * 1)"));
  // A tail the plan promises partial needs no clamp.
  p.body[1].partialOnly = true;
  CHECK(contains(emit::emitFunction(p, avx2, "k").function, "simdgen_load_prefix32(input + j, (n - j) * 1)"));
  p.body = body(true);
  REQUIRE(p.verify().empty());
  const std::string kept = emit::emitFunction(p, avx2, "k").function;
  CHECK(contains(kept, "__m256i tail_lanes = "));  // computed before j moved, used as a value
  CHECK(contains(kept, "if (x_active[l])"));
  // The same when the bound is a value that an op reassigns in between.
  ir::Block b;
  ir::Stmt limit = declared(ir::OpKind::SetIndex, "limit", {DType::i64, 1});
  limit.index = ir::Index::symbol("n");
  b.push_back(limit);
  b.push_back(whileLt("tail_lanes", v, ir::Index::constant(0), ir::Index::symbol("limit")));
  ir::Stmt shrink = ir::op(ir::OpKind::SetIndex, "limit", {DType::i64, 1});
  shrink.index = ir::Index::constant(1);
  b.push_back(shrink);
  b.push_back(maskedLoad("x", v, ir::Index::constant(0), "tail_lanes"));
  ir::Stmt st = ir::op(ir::OpKind::Store, "", v, {"x"});
  st.index = ir::Index::constant(0);
  b.push_back(st);
  p.body = b;
  REQUIRE(p.verify().empty());
  CHECK(contains(emit::emitFunction(p, avx2, "k").function, "__m256i tail_lanes = "));
}

TEST_CASE("SVE loop steps and bounds are lane counts (svcntw) when nothing else reads vscale, else vscale throughout") {
  const ir::VecType v = ir::scalableOf(DType::f32);
  ir::Plan p = onePlan(DType::f32);
  p.scalable = true;
  p.params = {{ir::Param::Kind::tensor, "input", "input", "input", ""},
              {ir::Param::Kind::extent, "n", "n", "", ""},
              {ir::Param::Kind::tensor, "output", "output", "output", ""}};
  for (ir::Tensor& t : p.tensors) {
    t.extents = {ir::Index::symbol("n")};
    t.strides = {ir::Index::constant(1)};
  }
  // for i in steps of `step` lanes per vscale: output[i + offset] = input[i + offset]; then a
  // let of `let` lanes per vscale.
  auto emitted = [&](int64_t step, std::vector<int64_t> offsets, int64_t let) {
    ir::Block body;
    for (int64_t o : offsets) {
      ir::Stmt l = declared(ir::OpKind::Load, "x" + std::to_string(o), v);
      l.index = ir::Index::symbol("i") + ir::Index::vscaled(o);
      ir::Stmt st = ir::op(ir::OpKind::Store, "", v, {l.dst});
      st.index = l.index;
      body.push_back(l);
      body.push_back(st);
    }
    p.body = {ir::forLoop("i", ir::Index::constant(0), ir::Index::symbol("n"), ir::Index::vscaled(step), body, false, "16 * vscale lanes per step"),
              ir::letIndex("rest", ir::Index::symbol("n") - ir::Index::vscaled(let))};
    REQUIRE(p.verify().empty());
    return emit::emitFunction(p, makeTarget({"sve", {}}), "k").function;
  };
  const std::string f = emitted(16, {0}, 6);
  CHECK(contains(f, "for (; i <= n - 4 * (int64_t)svcntw(); i += 4 * (int64_t)svcntw())"));  // f32 lanes, one `cntw` under GCC
  CHECK(contains(f, "int64_t rest = n - 3 * (int64_t)svcntd();"));  // 6 f32 lanes per 128 bits: the widest count that divides
  CHECK(contains(f, "// 16 * vscale lanes per step"));
  CHECK(!contains(f, "const int64_t vscale"));  // unused: declaring it would warn
  // Loads at vector offsets read vscale: then the steps keep it too, so that GCC computes one
  // value for both (mixing the spellings cost the i8 row sum a `cntb`).
  const std::string offsets = emitted(16, {0, 4, 12}, 2);
  CHECK(contains(offsets, "input + i + 4 * vscale"));
  CHECK(contains(offsets, "for (; i <= n - 16 * vscale; i += 16 * vscale)"));
  CHECK(contains(offsets, "int64_t rest = n - 2 * vscale;"));
  CHECK(contains(offsets, "const int64_t vscale = "));
  CHECK(!contains(offsets, "(int64_t)svcnt"));
  const std::string odd = emitted(3, {0}, 16);
  CHECK(contains(odd, "i += 3 * vscale"));
  CHECK(contains(odd, "int64_t rest = n - 16 * vscale;"));
  CHECK(contains(odd, "const int64_t vscale = "));
}
