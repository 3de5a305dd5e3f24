// SPDX-License-Identifier: Apache-2.0
// Plan simulation: every reduce plan (strategies x dtypes x ops x tails x axes), built for
// vector lengths 128..2048 bits and for the real x86 targets, executed by the reference
// interpreter and compared with the independent scalar reference. The interpreter bounds-checks
// every access, so a plan that reads past a row fails here too.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../reference/reduce_reference.h"
#include "plan/reduce_builder.h"
#include "sim/interpreter.h"

using namespace simdgen;

namespace {

template <class T>
T randomValue(std::mt19937_64& rng, ReduceOp op) {
  if constexpr (std::is_floating_point_v<T>) {
    if (op == ReduceOp::mul) return T(0.9 + 0.2 * double(rng() % 1000) / 1000.0);
    return T(double(int64_t(rng() % 2001) - 1000) / 100.0);
  } else {
    // Full-range bits: sums and products wrap, min/max see the extremes.
    return static_cast<T>(rng());
  }
}

template <class In, class Out>
void checkCase(const KernelSpec& spec, const Target& target, int64_t rows, int64_t cols, int64_t stride, int vscale) {
  const ir::Plan plan = buildReducePlan(spec, target);
  std::mt19937_64 rng(rows * 7919 + cols * 104729 + stride);
  const int64_t inElems = rows == 0 ? 0 : (rows - 1) * stride + cols;
  std::vector<In> in(inElems);
  for (auto& v : in) v = randomValue<In>(rng, spec.op);
  const int64_t outElems = spec.axis == 1 ? rows : cols;
  std::vector<Out> got(outElems, Out(77)), want(outElems);
  std::map<std::string, int64_t> params{{"rows", rows}, {"cols", cols}, {"stride", stride}};
  sim::runPlan(plan, params, in.data(), in.size(), got.data(), got.size(), vscale);
  simdgen_ref::reduce<Out, In>(static_cast<simdgen_ref::Op>(spec.op), spec.axis, in.data(), rows, cols, stride, want.data());
  const bool exact = !std::is_floating_point_v<Out> || spec.op == ReduceOp::min || spec.op == ReduceOp::max ||
                     spec.axis == 0 || resolveStrategy(spec) == Strategy::inner_parallel;
  for (int64_t k = 0; k < outElems; ++k) {
    INFO(spec.name, " on ", target.spelling, " vscale=", vscale, " rows=", rows, " cols=", cols, " stride=", stride, " k=", k);
    if (exact) {
      CHECK(got[k] == want[k]);
    } else {
      CHECK(std::fabs(double(got[k]) - double(want[k])) <= 1e-4 * std::fmax(1.0, std::fabs(double(want[k]))) * double(cols + rows));
    }
  }
}

template <class In, class Out>
void sweep(KernelSpec spec) {
  std::vector<Target> targets;
  for (int bits : {128, 256, 512, 1024, 2048}) targets.push_back(makeGenericTarget(bits));
  for (const char* t : {"scalar", "avx2", "avx512"}) targets.push_back(makeTarget({t, {}}));
  targets.push_back(makeTarget({"avx512", {"vnni"}}));
  // NEON: pairwise fold networks and pairwise widening groups (sadalp) of its own.
  targets.push_back(makeTarget({"neon", {}}));
  targets.push_back(makeTarget({"neon", {"dotprod"}}));
  // SVE: one scalable plan, run at 128, 512 and 2048 bits.
  targets.push_back(makeTarget({"sve", {}}));
  targets.push_back(makeTarget({"sve2", {}}));
  for (const Target& t : targets)
    for (int vscale : t.scalable ? std::vector<int>{1, 4, 16} : std::vector<int>{1}) {
      const int64_t lanes = t.lanes(spec.input) * vscale;
      for (auto [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{
               {0, 5}, {3, 0}, {1, 1}, {5, lanes - 1}, {17, lanes}, {2, lanes + 1}, {33, 3 * lanes + 5}, {4, 2 * lanes - 1}, {3, 4 * lanes + 3}}) {
        if (cols < 0) continue;
        for (int64_t pad : {0, 3}) checkCase<In, Out>(spec, t, rows, cols, cols + pad, vscale);
      }
    }
}

KernelSpec makeSpec(DType in, DType out, ReduceOp op, int axis, Strategy s, TailPolicy tail) {
  KernelSpec k;
  k.name = std::string(nameOf(op)) + "_" + std::string(nameOf(in)) + "_" + std::string(nameOf(out)) + "_axis" + std::to_string(axis) +
           "_" + std::string(nameOf(s)) + "_" + std::string(nameOf(tail));
  k.input = in;
  k.output = out;
  k.op = op;
  k.axis = axis;
  k.rows = Extent{std::nullopt, "rows"};
  k.cols = Extent{std::nullopt, "cols"};
  k.rowStride = Extent{std::nullopt, "stride"};
  k.strategy = s;
  k.tail = tail;
  return k;
}

template <class In, class Out>
void sweepAll(DType in, DType out) {
  for (ReduceOp op : kAllReduceOps) {
    if (!opSupports(op, in)) continue;
    int n = 0;
    for (Strategy s : {Strategy::vector_accumulator, Strategy::inner_reduction, Strategy::inner_parallel})
      for (TailPolicy tail : {TailPolicy::predicated, TailPolicy::scalar}) {
        sweep<In, Out>(makeSpec(in, out, op, 1, s, tail));
        if (n++ < 2) sweep<In, Out>(makeSpec(in, out, op, 0, Strategy::automatic, tail));
      }
  }
}

}  // namespace

#define SIM_CASE(IN, OUT, CIN, COUT) \
  TEST_CASE("plan simulation: " #IN " -> " #OUT) { sweepAll<CIN, COUT>(DType::IN, DType::OUT); }

SIM_CASE(i8, i8, int8_t, int8_t)
SIM_CASE(i8, i16, int8_t, int16_t)
SIM_CASE(i8, i32, int8_t, int32_t)
SIM_CASE(u8, u8, uint8_t, uint8_t)
SIM_CASE(u8, u16, uint8_t, uint16_t)
SIM_CASE(u8, u32, uint8_t, uint32_t)
SIM_CASE(i16, i16, int16_t, int16_t)
SIM_CASE(i16, i32, int16_t, int32_t)
SIM_CASE(i16, i64, int16_t, int64_t)
SIM_CASE(u16, u16, uint16_t, uint16_t)
SIM_CASE(u16, u32, uint16_t, uint32_t)
SIM_CASE(u16, u64, uint16_t, uint64_t)
SIM_CASE(i32, i32, int32_t, int32_t)
SIM_CASE(i32, i64, int32_t, int64_t)
SIM_CASE(u32, u32, uint32_t, uint32_t)
SIM_CASE(u32, u64, uint32_t, uint64_t)
SIM_CASE(i64, i64, int64_t, int64_t)
SIM_CASE(u64, u64, uint64_t, uint64_t)
SIM_CASE(f32, f32, float, float)
SIM_CASE(f32, f64, float, double)
SIM_CASE(f64, f64, double, double)

TEST_CASE("plan simulation: sequential float order is bit-identical to a left-to-right loop") {
  // Values of very different magnitudes make any reassociation visible.
  KernelSpec k = makeSpec(DType::f32, DType::f32, ReduceOp::add, 1, Strategy::automatic, TailPolicy::predicated);
  k.order = FloatOrder::sequential;
  for (int bits : {128, 512, 2048}) {
    const ir::Plan plan = buildReducePlan(k, makeGenericTarget(bits));
    const int64_t rows = 37, cols = 101;
    std::vector<float> in(rows * cols);
    for (size_t e = 0; e < in.size(); ++e) in[e] = (e % 3 == 0) ? 1e8f : (e % 3 == 1 ? 1.0f : -1e8f + 3.0f);
    std::vector<float> got(rows);
    sim::runPlan(plan, {{"rows", rows}, {"cols", cols}, {"stride", cols}}, in.data(), in.size(), got.data(), got.size());
    for (int64_t i = 0; i < rows; ++i) {
      float acc = 0.0f;
      for (int64_t j = 0; j < cols; ++j) acc += in[i * cols + j];
      CHECK(got[i] == acc);
    }
  }
}
