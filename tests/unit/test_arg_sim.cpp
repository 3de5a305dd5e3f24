// SPDX-License-Identifier: Apache-2.0
// Plan simulation for arg_reduce: every dtype, argmin/argmax, first/last, NaN policy, with and
// without an initial pair, both tails, on targets of 128..2048 bits and the real x86 targets,
// executed by the interpreter against the independent scalar loop. Small blocks (schedule.block)
// make ties across blocks and rescans frequent.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../reference/arg_reference.h"
#include "plan/family.h"
#include "sim/interpreter.h"

using namespace simdgen;

namespace {

template <class T>
std::vector<T> makeRow(std::mt19937_64& rng, int64_t n, int pattern) {
  std::vector<T> v(n);
  for (int64_t j = 0; j < n; ++j) {
    switch (pattern) {
      case 0: v[j] = T(rng() % 7); break;                                // many ties
      case 1: v[j] = std::is_floating_point_v<T> ? T(j) : T(j % 100); break;  // increasing
      case 2: v[j] = static_cast<T>(rng()); break;                        // full range
      default: v[j] = T(rng() % 5);
    }
  }
  if constexpr (std::is_floating_point_v<T>)
    if (pattern == 3 && n > 2) v[rng() % n] = NAN, v[n - 1] = NAN;
  if (pattern == 2 && n > 3) v[n / 3] = std::numeric_limits<T>::lowest(), v[n / 2] = std::numeric_limits<T>::max();
  return v;
}

template <class T>
void sweep(KernelSpec k) {
  simdgen_ref::ArgSpec<T> rs;
  rs.op = k.op == ReduceOp::max ? simdgen_ref::ArgOp::argmax : simdgen_ref::ArgOp::argmin;
  rs.last = k.lastIndex;
  rs.nan_propagate = k.nan == NanPolicy::propagate;
  if (k.initialValue) {
    rs.has_initial = true;
    rs.initial_value = T(3);
    rs.initial_index = -42;
  }
  std::vector<Target> targets{makeTarget({"scalar", {}}), makeTarget({"avx2", {}}), makeTarget({"avx512", {}})};
  for (int bits : {128, 256, 512, 1024, 2048}) targets.push_back(makeGenericTarget(bits));
  targets.push_back(makeTarget({"sve", {}}));  // one scalable plan, run at 128, 512 and 2048 bits
  for (const Target& t : targets)
    for (int vscale : t.scalable ? std::vector<int>{1, 4, 16} : std::vector<int>{1}) {
      const ir::Plan plan = buildPlan(k, t);
      const int64_t lanes = t.lanes(k.input) * vscale;
      for (int64_t cols : {int64_t(0), int64_t(1), lanes - 1, lanes + 1, 4 * lanes + 3, int64_t(*k.schedule.block) + 1, 3 * int64_t(*k.schedule.block) + lanes}) {
        if (cols < 0) continue;
        for (int pattern = 0; pattern < 4; ++pattern) {
          std::mt19937_64 rng(cols * 31 + pattern);
          const int64_t rows = 3, stride = cols + 2;
          std::vector<T> in(rows * stride);
          for (int64_t i = 0; i < rows; ++i) {
            std::vector<T> r = makeRow<T>(rng, cols, pattern);
            std::copy(r.begin(), r.end(), in.begin() + i * stride);
          }
          std::vector<T> values(rows), wantValues(rows);
          std::vector<int64_t> indices(rows), wantIndices(rows);
          sim::runPlan(plan, {{"rows", rows}, {"cols", cols}, {"stride", stride}}, in.data(), in.size(),
                       {{"values", values.data(), values.size()}, {"indices", indices.data(), indices.size()}}, vscale);
          simdgen_ref::arg_reduce(rs, in.data(), rows, cols, stride, wantValues.data(), wantIndices.data());
          for (int64_t i = 0; i < rows; ++i) {
            INFO(k.name, " on ", t.spelling, " vscale=", vscale, " cols=", cols, " pattern=", pattern, " row=", i);
            CHECK(indices[i] == wantIndices[i]);
            const bool bothNaN = values[i] != values[i] && wantValues[i] != wantValues[i];
            CHECK((bothNaN || values[i] == wantValues[i]));
          }
        }
      }
    }
}

template <class T>
void sweepType(DType t) {
  for (ReduceOp op : {ReduceOp::max, ReduceOp::min})
    for (bool last : {false, true})
      for (bool initial : {false, true})
        for (NanPolicy nan : {NanPolicy::ignore, NanPolicy::propagate}) {
          if (nan == NanPolicy::propagate && !isFloat(t)) continue;
          KernelSpec k;
          k.kind = KernelKind::arg_reduce;
          k.name = std::string(op == ReduceOp::max ? "argmax_" : "argmin_") + std::string(nameOf(t)) + (last ? "_last" : "_first") +
                   (initial ? "_init" : "") + (nan == NanPolicy::propagate ? "_propagate" : "");
          k.input = k.output = t;
          k.op = op;
          k.lastIndex = last;
          k.nan = nan;
          if (initial) {
            k.initialValue = isFloat(t) ? "3.0" : "3";
            k.initialIndex = -42;
          }
          k.rows = Extent{std::nullopt, "rows"};
          k.cols = Extent{std::nullopt, "cols"};
          k.rowStride = Extent{std::nullopt, "stride"};
          k.schedule.block = 256;
          k.tail = last ? TailPolicy::scalar : TailPolicy::predicated;
          sweep<T>(k);
        }
}

}  // namespace

TEST_CASE("arg_reduce plan simulation: integers") {
  sweepType<int8_t>(DType::i8);
  sweepType<uint8_t>(DType::u8);
  sweepType<int16_t>(DType::i16);
  sweepType<uint16_t>(DType::u16);
  sweepType<int32_t>(DType::i32);
  sweepType<uint32_t>(DType::u32);
  sweepType<int64_t>(DType::i64);
  sweepType<uint64_t>(DType::u64);
}

TEST_CASE("arg_reduce plan simulation: floats") {
  sweepType<float>(DType::f32);
  sweepType<double>(DType::f64);
}
