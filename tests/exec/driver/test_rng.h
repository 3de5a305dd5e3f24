// SPDX-License-Identifier: Apache-2.0
// The exec tests' random bits: SplitMix64 (Steele, Lea, Flood 2014), a UniformRandomBitGenerator
// with 64-bit state. std::mt19937_64 costs 2.5 KiB of state to seed (the tests seed one per shape
// or row) and its tempering made data generation a third of the emulated tests' run time; the
// tests need well-mixed bits, not a long period.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace simdgen_exec {

class TestRng {
 public:
  using result_type = uint64_t;
  explicit TestRng(uint64_t seed = 0) : state_(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() {
    uint64_t z = state_ += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// +-1.m x 2^e as float type T, sign and mantissa from the random bits r (e within T's normal
// range): test values assembled without floating-point arithmetic, which qemu emulates in software.
template <class T>
T float_from_bits(uint64_t r, int e) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  using L = std::numeric_limits<T>;
  constexpr int kMant = L::digits - 1, kBias = L::max_exponent - 1;
  const Bits sign = Bits(r >> 63) << (8 * sizeof(T) - 1), mant = Bits(r) & ((Bits(1) << kMant) - 1);
  const Bits b = sign | (Bits(e + kBias) << kMant) | mant;
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

}  // namespace simdgen_exec
