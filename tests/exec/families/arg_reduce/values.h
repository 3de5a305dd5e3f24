// SPDX-License-Identifier: Apache-2.0
// Element values for arg_reduce tests, relative to the op: a value that wins, background values
// that lose to it, narrow and full-range random values, monotonic ramps, neighbours of a value.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "arg_reference.h"
#include "test_rng.h"

namespace simdgen_exec::arg_reduce {

using simdgen_ref::ArgOp;
using Rng = TestRng;

template <class T>
struct Values {
  using L = std::numeric_limits<T>;
  static constexpr bool kFloat = std::is_floating_point_v<T>;
  ArgOp op;

  bool is_max() const { return op == ArgOp::argmax; }
  // The most extreme value in the op's direction (the type's max for argmax), and the identity.
  T top() const {
    if constexpr (kFloat) return is_max() ? L::infinity() : -L::infinity();
    else return is_max() ? L::max() : L::lowest();
  }
  T bottom() const { return simdgen_ref::arg_identity<T>(op); }
  // Finite winner for float data (infinities have their own cases); top() for integers.
  T win() const {
    if constexpr (kFloat) return is_max() ? T(1000) : T(-1000);
    else return top();
  }
  // Values one step better / worse than v in the op's order (saturating).
  T better(T v) const { return step(v, is_max()); }
  T worse(T v) const { return step(v, !is_max()); }
  static T step(T v, bool up) {
    if constexpr (kFloat) return std::nextafter(v, up ? L::infinity() : -L::infinity());
    else return up ? (v == L::max() ? v : T(v + 1)) : (v == L::lowest() ? v : T(v - 1));
  }

  // Random value that loses to win(): floats of magnitude in [2^-8, 128) with some zeros (sign,
  // exponent and mantissa from random bits: under qemu the harness's float arithmetic is
  // emulated in software), integers anything else.
  T background(Rng& rng) const {
    if constexpr (kFloat) {
      if (rng() % 16 == 0) return rng() % 2 ? T(0.0) : T(-0.0);
      const uint64_t r = rng();
      return float_from_bits<T>(r, int(rng() % 15) - 8);
    } else {
      for (;;)
        if (T x = full(rng); x != win()) return x;
    }
  }
  // Full range: every integer; floats finite of any exponent and sign (raw bits, no inf/NaN).
  T full(Rng& rng) const {
    if constexpr (kFloat) {
      for (;;)
        if (T x = bits(rng); std::isfinite(x)) return x;
    } else {
      return static_cast<T>(std::make_unsigned_t<T>(rng()));
    }
  }
  // Any bit pattern: floats include infinities, NaNs, denormals.
  static T bits(Rng& rng) {
    using U = std::conditional_t<sizeof(T) == 8, uint64_t, std::conditional_t<sizeof(T) == 4, uint32_t,
              std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
    const U u = U(rng());
    T x;
    std::memcpy(&x, &u, sizeof x);
    return x;
  }
  // One of four values next to the winner: many ties, several at the extreme.
  T narrow(Rng& rng) const {
    const int k = int(rng() % 4);
    if constexpr (kFloat) {
      constexpr T v[] = {T(0.0), T(-0.0), T(1), T(2)};
      return is_max() ? v[k] : T(-v[k]);
    } else {
      T x = top();
      for (int i = 0; i < k; ++i) x = worse(x);
      return x;
    }
  }
  // Element j of n on a ramp from the worst to the best value (increasing = each a new extreme
  // while the type has room) or back.
  T ramp(int64_t j, int64_t n, bool towards_best) const {
    if (!towards_best) j = n - 1 - j;
    if constexpr (kFloat) {
      const T x = T(j - n / 2);
      return is_max() ? x : T(-x);
    } else {
      using U = std::make_unsigned_t<T>;
      const unsigned __int128 range = U(~U(0));
      const U off = n > 1 ? U(range * uint64_t(j) / uint64_t(n - 1)) : U(0);
      return is_max() ? static_cast<T>(U(U(L::lowest()) + off)) : static_cast<T>(U(U(L::max()) - off));
    }
  }
};

}  // namespace simdgen_exec::arg_reduce
