// SPDX-License-Identifier: Apache-2.0
// Input data for reduce tests: random data shaped to keep each op sensitive to every element,
// extreme-value patterns, and "poison" for bytes the kernel must not use (row padding etc.).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "reduce_reference.h"
#include "test_rng.h"

namespace simdgen_test {

using simdgen_ref::Op;

enum class Pattern { random, max, min, minmax, ones, outlier, nan, all_nan, zeros, inf, huge, denorm };

inline const char* pattern_name(Pattern p) {
  constexpr const char* names[] = {"random",  "max", "min",     "minmax", "ones", "outlier",
                                   "nan",     "all_nan", "zeros", "inf",    "huge", "denorm"};
  return names[static_cast<int>(p)];
}

template <class T>
std::vector<Pattern> extreme_patterns() {
  if constexpr (std::is_floating_point_v<T>)
    return {Pattern::nan, Pattern::all_nan, Pattern::zeros, Pattern::inf, Pattern::huge, Pattern::denorm};
  else
    return {Pattern::max, Pattern::min, Pattern::minmax, Pattern::ones, Pattern::outlier};
}

// A value the kernel must never combine into a result: it would change the result of op.
template <class T>
T poison(Op op) {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    if (op == Op::min) return -L::infinity();
    if (op == Op::max) return L::infinity();
    return L::quiet_NaN();
  } else {
    switch (op) {
      case Op::mul: case Op::bit_and: return T(0);
      case Op::min: return L::lowest();
      case Op::max: case Op::bit_or: return static_cast<T>(~std::make_unsigned_t<T>(0));
      default: return static_cast<T>(std::make_unsigned_t<T>(0x5A5A5A5A5A5A5A5Aull));
    }
  }
}

// Produces element `pos` (of n) of reduction line `line` for one pattern.
template <class T>
struct Filler {
  using L = std::numeric_limits<T>;
  Op op;
  Pattern pattern;
  simdgen_exec::TestRng rng;

  int64_t salt;  // rotates special positions between calls, even for single-line shapes

  Filler(Op o, Pattern p, uint64_t seed) : op(o), pattern(p), rng(seed), salt(int64_t(seed % 12)) {}

  uint64_t bits() { return rng(); }
  double unit() { return double(bits() >> 11) * 0x1p-53; }           // [0, 1)
  double signed_unit() { return 2 * unit() - 1; }                    // [-1, 1)
  bool chance(unsigned one_in) { return bits() % one_in == 0; }
  // Start, middle or end of a line of n elements.
  static int64_t pos_of(int64_t k, int64_t n) { return k % 3 == 0 ? 0 : k % 3 == 1 ? n / 2 : n - 1; }
  // Where a line's one special element goes: start, middle, end, or nowhere.
  bool special_at(int64_t line, int64_t pos, int64_t n) const {
    line += salt;
    return line % 4 != 3 && pos == pos_of(line % 4, n);
  }

  T random_value() {
    if constexpr (std::is_floating_point_v<T>) {
      if (op == Op::mul) return T((bits() & 1 ? -1 : 1) * (1 + signed_unit() * 0x1p-7));
      if (chance(16)) return T(chance(2) ? 0.0 : -0.0);
      // Random sign and mantissa, exponent in [-range - 1, range), assembled from bits: under
      // qemu every floating-point operation of the harness is emulated in software.
      const int range = op == Op::add ? 6 : 20;
      const uint64_t r = bits();
      return simdgen_exec::float_from_bits<T>(r, int(bits() % (2 * range + 1)) - range - 1);
    } else {
      using U = std::make_unsigned_t<T>;
      const U r = U(bits()), one_bit = U(U(1) << (bits() % (8 * sizeof(T))));
      switch (op) {
        case Op::mul: return static_cast<T>(chance(8) ? r : U(r | 1u));  // mostly odd: no collapse to 0
        case Op::bit_and: return static_cast<T>(chance(32) ? U(~one_bit) : U(~U(0)));
        case Op::bit_or: return static_cast<T>(chance(32) ? one_bit : U(0));
        default: return static_cast<T>(r);
      }
    }
  }

  T value(int64_t line, int64_t pos, int64_t n) {
    if (pattern == Pattern::random) return random_value();
    if constexpr (std::is_floating_point_v<T>) {
      switch (pattern) {
        case Pattern::nan: return special_at(line, pos, n) ? L::quiet_NaN() : random_value();
        case Pattern::all_nan: return L::quiet_NaN();
        case Pattern::zeros: {
          const int64_t k = (line + salt) % 3;
          return k == 0 ? T(0.0) : k == 1 ? T(-0.0) : T(chance(2) ? 0.0 : -0.0);
        }
        case Pattern::inf: {
          // Per line: +inf, -inf, both (NaN for add), or none, at rotating positions.
          const int64_t k = line + salt;
          if (k % 4 != 3 && pos == pos_of(k / 4, n)) return k % 4 == 1 ? -L::infinity() : L::infinity();
          if (k % 4 == 2 && pos == pos_of(k / 4 + 1, n)) return -L::infinity();
          return random_value();
        }
        case Pattern::huge: return line % 2 || pos % 2 ? L::max() : -L::max();
        case Pattern::denorm: return T((bits() & 1 ? -1 : 1) * L::denorm_min() * double(1 + bits() % 8));
        default: return random_value();
      }
    } else {
      using U = std::make_unsigned_t<T>;
      switch (pattern) {
        case Pattern::max: return L::max();
        case Pattern::min: return L::lowest();
        case Pattern::minmax: return (line + pos) % 2 ? L::max() : L::lowest();
        case Pattern::ones: return static_cast<T>(~U(0));
        case Pattern::outlier:
          if (special_at(line, pos, n)) return (line + salt) % 8 < 4 ? L::lowest() : L::max();
          if (op == Op::bit_and) return static_cast<T>(~U(0));
          return T(op == Op::bit_or || op == Op::bit_xor ? 0 : 1);
        default: return random_value();
      }
    }
  }
};

}  // namespace simdgen_test
