// SPDX-License-Identifier: Apache-2.0
// Input elements for map kernels, by dtype: random values, and extremes (NaN, +-inf, +-0, the
// largest and smallest values, integer minimum and maximum and their neighbours) mixed in.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "map_reference.h"
#include "test_rng.h"

namespace simdgen_exec::map {

using simdgen_ref::map::DType;
using simdgen_ref::map::Value;

inline std::vector<Value> extremes(DType t) {
  std::vector<Value> v;
  if (t.is_float()) {
    const double inf = std::numeric_limits<double>::infinity();
    const bool f32 = t.bits == 32;
    for (double x : {std::numeric_limits<double>::quiet_NaN(), inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -1.5, 2.0,
                     f32 ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max(),
                     f32 ? double(std::numeric_limits<float>::lowest()) : std::numeric_limits<double>::lowest(),
                     f32 ? double(std::numeric_limits<float>::denorm_min()) : std::numeric_limits<double>::denorm_min()})
      v.push_back({x, 0});
    // For conversions to integers: ties, and values at and just beyond the integer ranges.
    for (double x : {2.5, -2.5, -0.5, 1.5, 127.5, 128.0, -128.5, -129.0, 255.5, 256.0, 32767.5, 32768.0, -32768.5, -32769.0,
                     65535.5, 65536.0, 2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0,
                     9223371487098961920.0, 9223372036854775808.0, -9223372036854775808.0, 18446742974197923840.0,
                     18446744073709551616.0})
      v.push_back({simdgen_ref::map::round_to(t, x), 0});
    if (!f32)
      for (double x : {2147483647.5, 2147483647.0, -2147483648.5, -2147483649.0, 4294967295.5, 4294967295.0,
                       9223372036854774784.0, -9223372036854777856.0, 18446744073709549568.0})
        v.push_back({x, 0});
    return v;
  }
  const uint64_t top = t.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << t.bits) - 1;
  const uint64_t smin = uint64_t{1} << (t.bits - 1);
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, top, top - 1, smin, smin - 1, smin + 1, uint64_t{7}, uint64_t{128}, uint64_t{200},
                     uint64_t{1000}, uint64_t{65535}, uint64_t{100000}})
    v.push_back({0, simdgen_ref::map::wrap(t, x)});
  return v;
}

// Element values of one input: random, with a share `special` (0..1) of extremes.
class Values {
 public:
  // The share is compared in integers and floats are drawn with one multiply: under qemu every
  // double operation of the harness is emulated in software, and std::uniform_real_distribution
  // made filling the inputs a large part of the emulated tests' time.
  Values(DType t, uint64_t seed, double special)
      : t_(t), rng_(seed), special_(special >= 1 ? ~uint64_t{0} : uint64_t(special * 0x1p64)), ext_(extremes(t)) {}
  Value next() {
    if (rng_() < special_) return ext_[rng_() % ext_.size()];
    Value v;
    if (t_.is_float()) {
      v.f = simdgen_ref::map::round_to(t_, double(int64_t(rng_() >> 11) - (int64_t{1} << 52)) * (100.0 / 0x1p52));
    } else {
      // Small values half of the time, so that comparisons and clamps see both outcomes.
      const uint64_t r = rng_();
      v.u = simdgen_ref::map::wrap(t_, r & 1 ? (r >> 1) % 301 - 150 : r >> 1);
    }
    return v;
  }

 private:
  DType t_;
  TestRng rng_;
  uint64_t special_;  // rng_() below it: an extreme value
  std::vector<Value> ext_;
};

// Same element? Bit for bit, except that any NaN matches any NaN.
inline bool same(DType t, Value a, Value b) {
  if (!t.is_float()) return simdgen_ref::map::wrap(t, a.u) == simdgen_ref::map::wrap(t, b.u);
  if (a.f != a.f || b.f != b.f) return a.f != a.f && b.f != b.f;
  if (t.bits == 32) {
    const float x = float(a.f), y = float(b.f);
    return std::memcmp(&x, &y, 4) == 0;
  }
  return std::memcmp(&a.f, &b.f, 8) == 0;
}

// Whether `got` is within `ulps` units in the last place of T at `want` (floats; an expression with a
// function computed to a bound). NaN, infinities and zeros must match exactly (the sign included).
inline bool close(DType t, Value got, Value want, double ulps) {
  if (!t.is_float() || got.f != got.f || want.f != want.f || std::isinf(want.f) || want.f == 0 || std::isinf(got.f))
    return same(t, got, want);
  const bool f32 = t.bits == 32;
  const double mag = std::fabs(want.f), lowest = f32 ? double(FLT_MIN) : DBL_MIN;
  const double ulp = std::ldexp(1.0, (mag < lowest ? (f32 ? -126 : -1022) : std::ilogb(mag)) - (f32 ? 23 : 52));
  return std::fabs(got.f - want.f) <= ulps * ulp;
}

inline std::string show(DType t, Value v) {
  if (t.is_float()) {  // every digit that tells two values of the dtype apart
    char buf[40];
    std::snprintf(buf, sizeof buf, t.bits == 32 ? "%.9g" : "%.17g", v.f);
    return buf + std::string(std::signbit(v.f) && v.f == 0 ? " (-0)" : "");
  }
  return t.kind == 'i' ? std::to_string(int64_t(v.u)) : std::to_string(v.u);
}

}  // namespace simdgen_exec::map
