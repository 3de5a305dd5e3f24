// SPDX-License-Identifier: Apache-2.0
// The `arg_reduce` family's test cases for a kernel whose input (and values) are T: data patterns
// over row lengths and shapes, each run on every variant and the dispatcher and checked against
// tests/reference/arg_reference.h. Rank-2 kernels get kRows rows per shape. Instantiated once per
// dtype (arg_reduce_type.cpp), not in each spec's test.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "arg_reduce.h"
#include "arg_reduce/fill.h"
#include "sweep.h"

namespace simdgen_exec::arg_reduce {

inline constexpr int64_t kRows = 3;

// Every element the same value: the index is the first (or last) one, or the initial one.
template <class T>
void case_all_equal(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T>& v = r.values();
  std::vector<std::pair<std::string, T>> cs = {{"0", T(0)},        {"1", T(1)},
                                               {"win", v.win()},   {"worse_than_win", v.worse(v.win())},
                                               {"top", v.top()},   {"identity", v.bottom()}};
  if constexpr (std::is_floating_point_v<T>) cs.push_back({"-0", T(-0.0)});
  if (r.spec().has_initial) {
    const T iv = r.spec().initial_value;
    cs.insert(cs.end(), {{"initial", iv}, {"better_than_initial", v.better(iv)}, {"worse_than_initial", v.worse(iv)}});
  }
  for (int64_t n : some_lengths(r.block()))
    for (const auto& [name, c] : cs) r.run("all_equal(" + name + ")", kRows, n, constant(c));
}

// Equal extremes inside one vector, across vectors and across blocks.
template <class T>
void case_ties(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T>& v = r.values();
  const int64_t B = r.block();
  auto tie = [&](int64_t n, std::vector<int64_t> ps) {
    std::vector<Plant<T>> plants;
    for (int64_t p : ps) plants.push_back({p, v.win()});
    r.run(label("ties", ps), kRows, n, planted(background(v), plants));
  };
  for (int64_t n : {16, 70, 300, 1000, 1027}) {
    for (auto ps : std::vector<std::vector<int64_t>>{{0, 1}, {0, 3}, {5, 6}, {5, 9}, {0, 1, 2, 3}, {0, -1}, {n / 2, -1}})
      tie(n, ps);
    for (int64_t p : {int64_t(0), int64_t(3), n / 2})
      for (int64_t d : {7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257})
        if (p + d < n) tie(n, {p, p + d});
    std::vector<int64_t> every5;
    for (int64_t j = 2; j < n; j += 5) every5.push_back(j);
    tie(n, every5);
  }
  for (int64_t n : {2 * B + 7, 3 * B + 100})
    for (auto ps : std::vector<std::vector<int64_t>>{{B - 1, B}, {0, B}, {5, B + 5}, {B - 1, 2 * B}, {3, B + 3, 2 * B + 3},
                                                     {B + 1, 2 * B + 1}, {7, 2 * B + 6}, {B / 2, B + B / 2 + 1}, {0, -1},
                                                     {B, -1}})
      tie(n, ps);
}

// The extreme in the first, the last, or both elements, at every length.
template <class T>
void case_ends(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T>& v = r.values();
  for (int64_t n : all_lengths(r.block())) {
    r.run("extreme_first", kRows, n, planted(background(v), at({0}, v.win())));
    r.run("extreme_last", kRows, n, planted(background(v), at({-1}, v.win())));
    r.run("extreme_first_and_last", kRows, n, planted(background(v), at({0, -1}, v.win())));
  }
}

// Random full-range data at every length (every tail length of every vector width).
template <class T>
void case_lengths(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  for (int64_t n : all_lengths(r.block())) r.run("random_full", kRows, n, each<T>([v](Rng& g) { return v.full(g); }));
}

// Increasing and decreasing ramps: every element a new extreme (ties once the type runs out).
template <class T>
void case_monotonic(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  auto lengths = some_lengths(r.block());
  lengths.push_back(20000);
  for (int64_t n : lengths)
    for (bool up : {true, false})
      r.run(up ? "towards_extreme" : "away_from_extreme", kRows, n, [v, up](T* row, int64_t m, int64_t, Rng&) {
        for (int64_t j = 0; j < m; ++j) row[j] = v.ramp(j, m, up);
      });
}

// NaN at the start, middle, end, everywhere, next to the extreme, across blocks (floats).
template <class T>
void nan_cases(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T>& v = r.values();
  const T nan = std::numeric_limits<T>::quiet_NaN(), w = v.win();
  const int64_t B = r.block();
  auto lengths = some_lengths(B);
  lengths.push_back(3 * B + 5);
  for (int64_t n : lengths) {
    for (T q : {nan, T(-nan)}) {
      const std::string s = std::signbit(q) ? "-nan" : "nan";
      for (auto ps : std::vector<std::vector<int64_t>>{{0}, {n / 2}, {-1}, {0, -1}, {n / 2, -1}, {B - 1, B}, {B + 3}}) {
        std::vector<Plant<T>> plants;
        for (int64_t p : ps) plants.push_back({p, q});
        r.run(label(s + "_at", ps), kRows, n, planted(background(v), plants));
      }
      r.run(s + "_all", kRows, n, constant(q));
      r.run(s + "_after_extreme", kRows, n, planted(background(v), {{n / 3, w}, {n / 3 + 1, q}}));
      r.run(s + "_before_extreme", kRows, n, planted(background(v), {{n / 3, q}, {n / 3 + 1, w}, {-1, w}}));
      r.run(s + "_between_identities", kRows, n, planted(constant(v.bottom()), at({n / 2}, q)));
      r.run(s + "_every_7th", kRows, n, [v, q](T* row, int64_t m, int64_t, Rng& g) {
        for (int64_t j = 0; j < m; ++j) row[j] = j % 7 == 3 ? q : v.background(g);
      });
      r.run(s + "_random_1_in_64", kRows, n, each<T>([v, q](Rng& g) { return g() % 64 ? v.full(g) : q; }));
    }
    r.run("nan_block_1_extreme_block_0", kRows, n, planted(background(v), {{1, w}, {B + 3, nan}}));
  }
}

// Infinities (ordinary values), signed zeros, denormals and the largest finite values (floats).
template <class T>
void inf_zero_cases(const Kernel& k) {
  using L = std::numeric_limits<T>;
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  const T inf = L::infinity();
  for (int64_t n : some_lengths(r.block())) {
    for (T x : {inf, -inf})
      for (auto ps : std::vector<std::vector<int64_t>>{{0}, {n / 2}, {-1}, {1, -1}}) {
        std::vector<Plant<T>> plants;
        for (int64_t p : ps) plants.push_back({p, x});
        r.run(label(x > 0 ? "inf_at" : "-inf_at", ps), kRows, n, planted(background(v), plants));
      }
    r.run("inf_and_-inf", kRows, n, planted(background(v), {{n / 3, inf}, {2 * n / 3, -inf}}));
    r.run("only_infinities", kRows, n, each<T>([inf](Rng& g) { return g() % 2 ? inf : -inf; }));
    r.run("zeros_mixed", kRows, n, each<T>([](Rng& g) { return g() % 2 ? T(0.0) : T(-0.0); }));
    // Both zeros are the extreme: the index is decided by position, not sign.
    const auto losing = each<T>([v](Rng& g) { return v.is_max() ? T(-1 - double(g() % 100)) : T(1 + double(g() % 100)); });
    r.run("+0_then_-0", kRows, n, planted(losing, {{n / 3, T(0.0)}, {2 * n / 3 + 1, T(-0.0)}}));
    r.run("-0_then_+0", kRows, n, planted(losing, {{n / 3, T(-0.0)}, {2 * n / 3 + 1, T(0.0)}}));
    r.run("denormals", kRows, n, each<T>([](Rng& g) {
      return T((g() % 2 ? -1 : 1) * double(L::denorm_min()) * double(1 + g() % 8));
    }));
    r.run("largest_finite", kRows, n, each<T>([](Rng& g) { return g() % 2 ? L::max() : L::lowest(); }));
  }
}

// The integer type's extremes, rows of only the identity, the identity's neighbour (integers).
template <class T>
void int_limits_cases(const Kernel& k) {
  using L = std::numeric_limits<T>;
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  const T id = v.bottom();
  for (int64_t n : some_lengths(r.block())) {
    r.run("all_identity", kRows, n, constant(id));
    r.run("all_max", kRows, n, constant(L::max()));
    r.run("all_lowest", kRows, n, constant(L::lowest()));
    for (auto ps : std::vector<std::vector<int64_t>>{{0}, {n / 2}, {-1}}) {
      r.run(label("identity_with_top_at", ps), kRows, n, planted(constant(id), {{ps[0], v.top()}}));
      r.run(label("identity_with_next_at", ps), kRows, n, planted(constant(id), {{ps[0], v.better(id)}}));
    }
    for (int phase : {0, 1})
      r.run("alternating_lowest_max#" + std::to_string(phase), kRows, n, [phase](T* row, int64_t m, int64_t, Rng&) {
        for (int64_t j = 0; j < m; ++j) row[j] = (j + phase) % 2 ? L::max() : L::lowest();
      });
    r.run("random_with_limits", kRows, n, each<T>([v](Rng& g) {
      const auto c = g() % 16;
      return c == 0 ? L::lowest() : c == 1 ? L::max() : v.full(g);
    }));
  }
}

// `initial` pairs that win (nothing beats them) and that lose.
template <class T>
void case_initial(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  const T iv = r.spec().initial_value, worse = v.worse(iv), better = v.better(iv);
  for (int64_t n : some_lengths(r.block())) {
    r.run("initial_everywhere", kRows, n, constant(iv));
    r.run("all_worse_than_initial", kRows, n, constant(worse));
    for (auto ps : std::vector<std::vector<int64_t>>{{0}, {n / 2}, {-1}, {2, -2}}) {
      std::vector<Plant<T>> eq, bt;
      for (int64_t p : ps) eq.push_back({p, iv}), bt.push_back({p, better});
      r.run(label("equal_to_initial_at", ps), kRows, n, planted(constant(worse), eq));
      r.run(label("better_than_initial_at", ps), kRows, n, planted(constant(worse), bt));
    }
    r.run("top_in_the_middle", kRows, n, planted(constant(worse), at({n / 2}, v.top())));
    r.run("around_initial", kRows, n, each<T>([=](Rng& g) {
      const auto c = g() % 8;
      return c == 0 ? better : c < 3 ? iv : worse;
    }));
    r.run("random_full", kRows, n, each<T>([v](Rng& g) { return v.full(g); }));
  }
}

// Row-wise: row counts (odd ones included) x lengths x strides cols, cols + 1, cols + 13 (rank 2).
template <class T>
void case_rows(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  const T w = v.win();
  for (int64_t rows : {0, 1, 2, 3, 5, 7, 17, 33})
    for (int64_t cols : {int64_t(0), int64_t(1), int64_t(2), int64_t(3), int64_t(5), int64_t(7), int64_t(8),
                         int64_t(15), int64_t(16), int64_t(17), int64_t(31), int64_t(32), int64_t(33), int64_t(63),
                         int64_t(64), int64_t(65), int64_t(100), int64_t(127), int64_t(128), int64_t(129),
                         int64_t(255), int64_t(257), int64_t(1000), r.block() + 1})
      for (int64_t pad : {0, 1, 13}) {
        auto run = [&](const char* name, RowFill<T> f) { r.run_shape(name, rows, cols, pad, 0, Placement::heap, f); };
        run("random_full", each<T>([v](Rng& g) { return v.full(g); }));
        run("random_narrow", each<T>([v](Rng& g) { return v.narrow(g); }));
        run("extreme_moves_with_row", [v, w](T* row, int64_t n, int64_t i, Rng& g) {
          for (int64_t j = 0; j < n; ++j) row[j] = v.background(g);
          if (n) row[(i * 7) % n] = w, row[(i * 7 + 3) % n] = w;
        });
        run("extreme_last", planted(background(v), at({-1}, w)));
        if constexpr (std::is_floating_point_v<T>) run("random_bits", each<T>([](Rng& g) { return Values<T>::bits(g); }));
      }
}

// Random data with many ties (four values next to the extreme), several seeds.
template <class T>
void case_random_narrow(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  for (int64_t n : all_lengths(r.block()))
    for (int s = 0; s < 2; ++s)
      r.run("random_narrow#" + std::to_string(s), kRows, n, each<T>([v](Rng& g) { return v.narrow(g); }));
  for (int64_t n : {int64_t(20000), 3 * r.block() + 5})
    for (int s = 0; s < 4; ++s)
      r.run("random_narrow#" + std::to_string(s), kRows, n, each<T>([v](Rng& g) { return v.narrow(g); }));
}

// Random full-range data (floats also as raw bit patterns: NaN, inf, denormals), several seeds.
template <class T>
void case_random_full(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  auto lengths = some_lengths(r.block());
  lengths.insert(lengths.end(), {20000, 3 * r.block() + 5});
  for (int64_t n : lengths)
    for (int s = 0; s < 6; ++s) {
      r.run("random_full#" + std::to_string(s), kRows, n, each<T>([v](Rng& g) { return v.full(g); }));
      if constexpr (std::is_floating_point_v<T>)
        r.run("random_bits#" + std::to_string(s), kRows, n, each<T>([](Rng& g) { return Values<T>::bits(g); }));
    }
}

// Random shapes (lengths up to 4 blocks, 0..9 rows, padding, misalignment), random base data, and
// a few extremes, identities, NaNs or initial values planted at random positions or at block edges.
template <class T>
void case_fuzz(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  const int64_t B = r.block();
  std::vector<T> specials = {v.win(), v.top(), v.bottom(), v.worse(v.win()), v.better(v.bottom())};
  if constexpr (std::is_floating_point_v<T>) specials.push_back(std::numeric_limits<T>::quiet_NaN());
  if (r.spec().has_initial) specials.push_back(r.spec().initial_value);
  const RowFill<T> bases[] = {each<T>([v](Rng& g) { return v.full(g); }), each<T>([v](Rng& g) { return v.narrow(g); }),
                              background(v), constant(v.bottom())};
  Rng meta(20240601);
  // Rows reach four blocks, so the work grows with the block: a spec's block above the default
  // 8 KiB runs proportionally fewer iterations (a 512 KiB block took 54 s natively, minutes under qemu).
  const int64_t scale = std::max<int64_t>(1, B * int64_t(sizeof(T)) / 8192);
  const int iterations = int(std::max<int64_t>(thin_sweep() ? 40 : 200, (thin_sweep() ? 400 : 4000) / scale));
  for (int i = 0; i < iterations; ++i) {
    const int64_t n = int64_t(meta() % 4 == 0 ? meta() % 300 : meta() % (4 * B + 1));
    const int64_t rows = int64_t(meta() % 10), pad = int64_t(meta() % 3 == 0 ? meta() % 20 : 0);
    const int misalign = int(meta() % 2 ? meta() % (64 / sizeof(T)) : 0);
    std::vector<Plant<T>> plants(meta() % 5);
    for (Plant<T>& p : plants) {
      p.at = meta() % 2 ? int64_t(meta() % uint64_t(n + 1)) : int64_t(meta() % 5) * B + int64_t(meta() % 3) - 1;
      p.value = specials[meta() % specials.size()];
    }
    r.run_shape("fuzz#" + std::to_string(i), rows, n, pad, misalign, Placement::heap, planted(bases[meta() % 4], plants));
  }
}

// Input and output pointers off a 64-byte boundary by every few elements.
template <class T>
void case_misaligned(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  for (int m : {1, 2, 3, 5, 7, 9, 15, 31, 63}) {
    if (m * sizeof(T) >= 64) continue;
    for (int64_t n : {int64_t(0), int64_t(1), int64_t(2), int64_t(3), int64_t(7), int64_t(15), int64_t(16),
                      int64_t(17), int64_t(31), int64_t(32), int64_t(33), int64_t(63), int64_t(64), int64_t(65),
                      int64_t(127), int64_t(128), int64_t(129), int64_t(257), int64_t(1000), r.block() + 1})
      for (int64_t pad : {0, 1}) {
        r.run_shape("random_full", kRows, n, pad, m, Placement::heap, each<T>([v](Rng& g) { return v.full(g); }));
        r.run_shape("extreme_last", kRows, n, pad, m, Placement::heap, planted(background(v), at({-1}, v.win())));
      }
  }
}

// Input (and outputs) ending exactly before a PROT_NONE page, or starting right after one.
template <class T>
void case_guard_pages(const Kernel& k) {
  ArgRunner<T> r(k);
  const Values<T> v = r.values();
  const int64_t B = r.block();
  for (int64_t n : upto(70, {95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, B - 1, B, B + 1}))
    for (int64_t rows : {1, 2, 3})
      for (Placement p : {Placement::guard_after_end, Placement::guard_before_start}) {
        const int64_t pad = rows > 1 ? n % 2 : 0;
        r.run_shape("random_full", rows, n, pad, 0, p, each<T>([v](Rng& g) { return v.full(g); }));
        r.run_shape("extreme_first", rows, n, pad, 0, p, planted(background(v), at({0}, v.win())));
        r.run_shape("extreme_last", rows, n, pad, 0, p, planted(background(v), at({-1}, v.win())));
        r.run_shape("all_identity", rows, n, pad, 0, p, constant(v.bottom()));
      }
}

template <class T>
void case_nan(const Kernel& k) {
  if constexpr (std::is_floating_point_v<T>) nan_cases<T>(k);
  else FAIL(k.name << ": case nan does not apply to its dtype");
}

template <class T>
void case_inf_zero(const Kernel& k) {
  if constexpr (std::is_floating_point_v<T>) inf_zero_cases<T>(k);
  else FAIL(k.name << ": case inf_zero does not apply to its dtype");
}

template <class T>
void case_int_limits(const Kernel& k) {
  if constexpr (!std::is_floating_point_v<T>) int_limits_cases<T>(k);
  else FAIL(k.name << ": case int_limits does not apply to its dtype");
}

// Runs case `c` (a name of SIMDGEN_EXEC_FAMILY_CASES) on kernel `k`.
template <class T>
void run_case(std::string_view c, const Kernel& k) {
#define SIMDGEN_ARG_REDUCE_CASE(name) \
  if (c == #name) return case_##name<T>(k);
  SIMDGEN_EXEC_FAMILY_CASES(SIMDGEN_ARG_REDUCE_CASE)
#undef SIMDGEN_ARG_REDUCE_CASE
  FAIL(k.name << ": arg_reduce has no case '" << c << "'");
}

}  // namespace simdgen_exec::arg_reduce
