// SPDX-License-Identifier: Apache-2.0
// The arg_reduce module's view of a kernel on top of the generic driver: the reference spec read
// from the plan's semantics (op, index, nan, initial, block), row fillers, and the check of each
// row's (value, index) against tests/reference/arg_reference.h.
#pragma once

#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "arg_reference.h"
#include "show.h"
#include "runner.h"
#include "shapes.h"
#include "values.h"

namespace simdgen_exec::arg_reduce {

using simdgen_exec::Kernel;
using simdgen_exec::Placement;
using simdgen_exec::Shape;
using simdgen_test::show;

// Fills row r (n elements) of the input.
template <class T>
using RowFill = std::function<void(T* row, int64_t n, int64_t r, Rng& rng)>;

// Parses a JSON number into T; false when it is malformed or out of T's range.
template <class T>
bool parse_number(const std::string& text, T& out) {
  const char *b = text.data(), *e = b + text.size();
  if constexpr (std::is_floating_point_v<T>) {
    // Rounded once to T as C reads the literal (strtof: no double rounding through a double);
    // a subnormal or a zero from underflow is that value, an overflow to infinity is refused.
    char* end = nullptr;
    out = std::is_same_v<T, float> ? T(std::strtof(text.c_str(), &end)) : T(std::strtod(text.c_str(), &end));
    return !text.empty() && end == text.c_str() + text.size() && std::isfinite(out);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    W w = 0;
    auto [p, ec] = std::from_chars(b, e, w);
    out = static_cast<T>(w);
    return ec == std::errc() && p == e && W(out) == w;
  }
}

template <class T>
simdgen_ref::ArgSpec<T> reference_spec(const Kernel& k) {
  const std::string op = k.semantic("op"), index = k.semantic("index"), nan = k.semantic("nan");
  REQUIRE_MESSAGE((op == "argmax" || op == "argmin"), k.name << ": semantics op '" << op << "'");
  REQUIRE_MESSAGE((index == "first" || index == "last"), k.name << ": semantics index '" << index << "'");
  REQUIRE_MESSAGE((nan == "ignore" || nan == "propagate"), k.name << ": semantics nan '" << nan << "'");
  simdgen_ref::ArgSpec<T> s{op == "argmax" ? ArgOp::argmax : ArgOp::argmin, index == "last", nan == "propagate",
                            k.has_semantic("initial_value"), {}, 0};
  if (s.has_initial) {
    REQUIRE_MESSAGE(parse_number(k.semantic("initial_value"), s.initial_value),
                    (k.name + ": initial value " + k.semantic("initial_value") + " does not fit the input dtype"));
    REQUIRE_MESSAGE(parse_number(k.semantic("initial_index"), s.initial_index),
                    (k.name + ": initial index " + k.semantic("initial_index") + " is not a 64-bit integer"));
  }
  return s;
}

// Runs rows x cols shapes of one kernel: T = values and input; the indices are i32 or i64, read
// as the kernel's tensor says (one runner per value type: compiled once, see arg_reduce.cpp).
template <class T>
class ArgRunner {
 public:
  explicit ArgRunner(const Kernel& k)
      : spec_(reference_spec<T>(k)), values_{spec_.op}, block_(std::stoll(k.semantic("block", "0"))),
        wide_indices_(k.tensor("indices").dtype == "i64"), r_(k, poison()) {
    REQUIRE_MESSAGE(block_ > 0, k.name << ": semantics block '" << k.semantic("block") << "'");
    REQUIRE_MESSAGE((k.tensor("values").dtype == k.input().dtype), k.name << ": values and input differ in dtype");
    REQUIRE_MESSAGE((wide_indices_ || k.tensor("indices").dtype == "i32"),
                    k.name << ": indices dtype '" << k.tensor("indices").dtype << "' (i32 or i64 expected)");
  }

  const simdgen_ref::ArgSpec<T>& spec() const { return spec_; }
  const Values<T>& values() const { return values_; }
  int64_t block() const { return block_; }

  // `rows` x `cols` (fitted to the static extents) with row padding rotating through 0, 1, 13.
  void run(const std::string& pattern, int64_t rows, int64_t cols, const RowFill<T>& fill) {
    constexpr int64_t kPads[] = {0, 1, 13};
    run_shape(pattern, rows, cols, kPads[turn_++ % 3], 0, Placement::heap, fill);
  }

  void run_shape(const std::string& pattern, int64_t rows, int64_t cols, int64_t pad, int misalign, Placement where,
                 const RowFill<T>& fill) {
    const auto fitted = simdgen_exec::fit(r_.extents(), rows, cols, pad, misalign);
    if (!fitted) return;
    const Shape s = *fitted;
    r_.run(
        s, where, "pattern=" + pattern,
        [&](T* in) {
          Rng rng(seed_++);
          for (int64_t i = 0; i < s.rows; ++i) fill(in + i * s.stride, s.cols, i, rng);
        },
        [&](const T* in) { return expect(in, s); });
  }

 private:
  // Padding and slack hold the value that would beat everything: reading it shows.
  T poison() const {
    if constexpr (std::is_floating_point_v<T>)
      if (spec_.nan_propagate) return std::numeric_limits<T>::quiet_NaN();
    return values_.top();
  }

  static bool same_value(T got, T want) {
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
    return got == want;  // -0.0 == +0.0
  }

  simdgen_exec::Check expect(const T* in, const Shape& s) const {
    std::vector<simdgen_ref::ArgResult<T>> e;
    for (int64_t i = 0; i < s.rows; ++i) e.push_back(simdgen_ref::arg_reduce_row(spec_, in + i * s.stride, s.cols));
    return [e = std::move(e), in, s, wide = wide_indices_](const simdgen_exec::Outputs& o) -> std::string {
      const T* values = o.get<T>("values");
      // An index as the kernel stores it, and an expected index as an i32 kernel would store it.
      auto got_index = [&](int64_t r) { return wide ? o.get<int64_t>("indices")[r] : int64_t(o.get<int32_t>("indices")[r]); };
      auto stored = [&](int64_t index) { return wide ? index : int64_t(static_cast<int32_t>(index)); };
      int64_t bad = 0, first = -1;
      for (int64_t r = 0; r < s.rows; ++r)
        if (!same_value(values[r], e[size_t(r)].value) || got_index(r) != stored(e[size_t(r)].index))
          bad += 1, first = first < 0 ? r : first;
      if (!bad) return "";
      const T* row = in + first * s.stride;
      auto element = [&](int64_t j) {
        return j >= 0 && j < s.cols ? " (row[" + std::to_string(j) + "] = " + show(row[j]) + ")" : std::string();
      };
      const auto& want = e[size_t(first)];
      return "row " + std::to_string(first) + " of " + std::to_string(s.rows) + ": got value " + show(values[first]) +
             " index " + std::to_string(got_index(first)) + element(got_index(first)) +
             ", expected value " + show(want.value) + " index " + std::to_string(stored(want.index)) +
             element(want.index) + "; " + std::to_string(bad) + " mismatching rows";
    };
  }

  simdgen_ref::ArgSpec<T> spec_;
  Values<T> values_;
  int64_t block_;
  bool wide_indices_;  // i64 indices, else i32
  simdgen_exec::Runner<T> r_;
  uint64_t seed_ = 1;
  unsigned turn_ = 0;
};

}  // namespace simdgen_exec::arg_reduce
