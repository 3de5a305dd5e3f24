// SPDX-License-Identifier: Apache-2.0
// The bf16 pair dot products as the instructions' documentation defines them, written apart from
// the interpreter (sim/interpreter.cpp) so that each checks the other: Intel's VDPBF16PS and
// Arm's BFDOT (BFDotAdd without FPCR.EBF), one f32 lane each. Used by the lowered kernels'
// bit-for-bit test (proof_exec_test.cpp, natively and under qemu) and by the interpreter's
// (tests/unit/test_ir_proofs.cpp).
#pragma once

#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace bf16_reference {

inline float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float daz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline float bf16Of(uint32_t pair, int half) { return daz(bitsToFloat((pair >> (16 * half) & 0xffffu) << 16)); }

// Intel's VDPBF16PS pseudo-code: two FP32 FMAs (odd pair first), inputs read as zero when
// subnormal (DAZ), subnormal results flushed (FTZ), round to nearest even.
inline float vdpbf16psLane(float acc, uint32_t b, uint32_t c) {
  float t = daz(acc);
  for (int half : {1, 0}) t = daz(std::fmaf(bf16Of(b, half), bf16Of(c, half), daz(t)));
  return t;
}
// Arm's BFDotAdd without FPCR.EBF: products and sums rounded to odd, the pair summed first,
// subnormal inputs and results flushed. Round to odd here comes from the C environment: the
// operation rounded toward zero, then the last bit set if it was inexact; an overflow (2^128 or
// more) is an infinity.
inline float roundedToOdd(float x, float y, bool multiply) {
  volatile float a = daz(x), b = daz(y);
  std::fesetround(FE_TOWARDZERO);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float r = multiply ? a * b : a + b;
  const int raised = std::fetestexcept(FE_INEXACT | FE_OVERFLOW);
  std::fesetround(FE_TONEAREST);
  const float v = r;
  if (std::isnan(v)) return v;
  if (raised & FE_OVERFLOW) return std::copysign(INFINITY, v);
  if (std::fabs(v) < FLT_MIN) return std::copysign(0.0f, v);
  return (raised & FE_INEXACT) ? bitsToFloat(floatBits(v) | 1u) : v;
}
inline float bfdotLane(float acc, uint32_t b, uint32_t c) {
  const float pair = roundedToOdd(roundedToOdd(bf16Of(b, 0), bf16Of(c, 0), true), roundedToOdd(bf16Of(b, 1), bf16Of(c, 1), true), false);
  return roundedToOdd(acc, pair, false);
}

// Lanes where the two roundings differ (1 + 2^-24, FLT_MAX + 2^103, a pair summed first, a
// subnormal accumulator, tiny products), then 400 random ones over wide exponent ranges (some
// products near 2^128, some subnormal or zero bf16).
struct Lanes {
  std::vector<float> acc;
  std::vector<uint32_t> b, c;
};
inline Lanes testLanes() {
  auto pow2 = [](int e) { return uint32_t(127 + e) << 7; };
  auto pair = [](uint32_t even, uint32_t odd_) { return even | odd_ << 16; };
  Lanes l;
  l.acc = {1.0f, FLT_MAX, 0.0f, 1.0f, FLT_MIN / 2, -FLT_MIN, 3.0f};
  l.b = {pair(pow2(-12), 0), pair(pow2(52), 0), pair(pow2(-65), 0), pair(pow2(-25), pow2(-25)),
         pair(pow2(-126), 0), pair(0x8040u, 0) /* a negative subnormal */, pair(pow2(1), pow2(-30))};
  l.c = {pair(pow2(-12), 0), pair(pow2(51), 0), pair(pow2(-65), 0), pair(pow2(0), pow2(0)),
         pair(pow2(0), 0), pair(pow2(3), 0), pair(pow2(0), pow2(0))};
  std::mt19937_64 rng(99);
  auto bf16 = [&](int lo, int hi) {
    const uint32_t r = uint32_t(rng());
    if (r % 29 == 0) return uint32_t(r >> 8 & 0x7f);  // a subnormal (or zero)
    return (r & 0x8000u) | uint32_t(127 + lo + int(r % uint32_t(hi - lo + 1))) << 7 | (r >> 16 & 0x7fu);
  };
  for (int i = 0; i < 400; ++i) {
    const int wide = i % 7 == 0 ? 60 : 20;  // some products near 2^128
    l.acc.push_back(bitsToFloat(bf16(-wide, wide) << 16 | uint32_t(rng() & 0xffffu)));
    l.b.push_back(bf16(-wide, wide) | bf16(-wide, wide) << 16);
    l.c.push_back(bf16(-wide, wide) | bf16(-wide, wide) << 16);
  }
  return l;
}

}  // namespace bf16_reference
