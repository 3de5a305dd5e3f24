// SPDX-License-Identifier: Apache-2.0
// sin and cos of f32 values, computed in f64 (the map builder converts; functions.cpp,
// workingType) and rounded once, for every f32 input, without tables or branches.
//
// x 2/pi is reduced modulo 4 quarter turns by a table-free Payne-Hanek reduction: a chain of
// selects on |x| picks the three chunks of 2/pi that matter for |x|'s exponent band
// (trig_constants.h, from derive_trig.py: c1 and c2 short enough that x c1 and x c2 are exact,
// c3 the rest), k = nearest(x c1 + x c2) and r = ((x c1 - k) + x c2) + x c3, where only the last
// add and x c3 round: r (quarter turns) keeps a relative error below 2^(W-51) even for the f32
// closest to a multiple of pi/2 (2^-29.86 quarter turns away). Then sin(pi/2 r) = r S(r^2) and
// cos(pi/2 r) = C(r^2) are both computed; bit 0 of k (plus 1 for cos) picks one, bit 1 the sign.
// No fused multiply-add in the reduction, so targets without FMA reduce identically. As in
// exp_log.cpp, no MathOps call takes two operands that emit ops.
#include <climits>

#include "plan/math/elementary.h"
#include "plan/math/trig_constants.h"

namespace simdgen::math {

namespace {

namespace t = trig_constants;

struct Chunks {
  std::span<const double> bandLow, c1, c2, c3, sin, cos;
};
Chunks chunksFor(int maxUlp) {
  if (maxUlp <= 1) return {t::kBandLowUlp1, t::kChunk1Ulp1, t::kChunk2Ulp1, t::kChunk3Ulp1, t::kSinUlp1, t::kCosUlp1};
  return {t::kBandLowUlp4, t::kChunk1Ulp4, t::kChunk2Ulp4, t::kChunk3Ulp4, t::kSinUlp4, t::kCosUlp4};
}

// sin(x) (cosine: cos(x), which is sin of x plus a quarter turn) for an f64 x that holds an f32.
std::string sinCosOf(MathOps& o, const std::string& x, int maxUlp, bool cosine) {
  const Chunks k = chunksFor(maxUlp);
  const std::string ax = o.abs(x);
  std::string c1 = o.c(k.c1.back()), c2 = o.c(k.c2.back()), c3 = o.c(k.c3.back());
  for (size_t band = k.bandLow.size() - 1; band-- > 0;) {
    const std::string below = o.less(ax, o.c(k.bandLow[band + 1]));
    const std::string lower1 = o.c(k.c1[band]);
    c1 = o.select(below, lower1, c1);
    const std::string lower2 = o.c(k.c2[band]);
    c2 = o.select(below, lower2, c2);
    const std::string lower3 = o.c(k.c3[band]);
    c3 = o.select(below, lower3, c3);
  }
  const std::string p1 = o.mul(x, c1), p2 = o.mul(x, c2), p3 = o.mul(x, c3);
  // + 0 turns k = -0 into +0, so that r (and sin) keep x's zero sign.
  const std::string turns = o.nearest(o.add(p1, p2));
  const std::string kk = o.add(turns, o.c(0.0));
  const std::string r = o.add(o.add(o.sub(p1, kk), p2), p3);  // inf or NaN x: NaN
  // The low bits of k + 1.5 * 2^52 are k's (|k| < 2^51), plus a quarter turn for cos.
  std::string q = o.asInt(o.add(kk, o.c(0x1.8p52)));
  if (cosine) q = o.iadd(q, o.ci(1));
  const std::string u = o.mul(r, r);
  const std::string s = o.mul(o.horner(u, k.sin), r);  // odd: keeps r's zero sign
  const std::string c = o.horner(u, k.cos);             // C(0) = 1: cos(0) = 1 exactly
  // Bit 0 of q picks c over s (s ^ ((s ^ c) & -bit0)), bit 1 flips the sign.
  const std::string sBits = o.asInt(s), cBits = o.asInt(c);
  const std::string bit0 = o.iand(q, o.ci(1));
  const std::string mask = o.isub(o.ci(0), bit0);
  const std::string picked = o.ixor(sBits, o.iand(o.ixor(sBits, cBits), mask));
  const std::string bit1 = o.shl(q, 62);
  const std::string sign = o.iand(bit1, o.ci(INT64_MIN));
  return o.asFloat(o.ixor(picked, sign));
}

}  // namespace

std::string sinOf(MathOps& o, const std::string& x, int maxUlp) { return sinCosOf(o, x, maxUlp, false); }
std::string cosOf(MathOps& o, const std::string& x, int maxUlp) { return sinCosOf(o, x, maxUlp, true); }

}  // namespace simdgen::math
