// SPDX-License-Identifier: Apache-2.0
// recip(x) = 1 / x and rsqrt(x) = 1 / sqrt(x). recip is one division, correctly rounded in both
// tiers. rsqrt's 4-ULP tier is a square root and a division (two roundings: under 1.5 ULP). Its
// 1-ULP tier: f32 runs the same two operations in f64 and rounds once (functions.cpp,
// workingType); f64 corrects them by one Newton step on an exactly computed residual, which leaves
// the result correctly rounded but where the exact value lies within about 2^-100 of a midpoint.
// As in exp_log.cpp, no MathOps call takes two operands that emit ops.
#include "plan/math/elementary.h"

namespace simdgen::math {

namespace {

// a * b = p + e exactly, without a fused multiply-add (Dekker, with Veltkamp's splits into 26 and
// 27 bits), for a and b whose products of halves neither overflow nor underflow.
struct Product {
  std::string p, e;
};
std::string splitHigh(MathOps& o, const std::string& a) {
  const std::string scaled = o.mul(a, o.c(o.isF32() ? 4097.0 : 134217729.0));  // 2^12 + 1, 2^27 + 1
  const std::string d = o.sub(scaled, a);
  return o.sub(scaled, d);
}
Product twoProduct(MathOps& o, const std::string& a, const std::string& b) {
  const std::string p = o.mul(a, b);
  if (o.fused()) {
    const std::string minusP = o.neg(p);
    return {p, o.fma(a, b, minusP)};
  }
  const std::string aHi = splitHigh(o, a);
  const std::string aLo = o.sub(a, aHi);
  const std::string bHi = splitHigh(o, b);
  const std::string bLo = o.sub(b, bHi);
  const std::string hh = o.mul(aHi, bHi);
  const std::string e1 = o.sub(hh, p);
  const std::string hl = o.mul(aHi, bLo);
  const std::string e2 = o.add(e1, hl);
  const std::string lh = o.mul(aLo, bHi);
  const std::string e3 = o.add(e2, lh);
  const std::string ll = o.mul(aLo, bLo);
  return {p, o.add(e3, ll)};
}

}  // namespace

std::string recipOf(MathOps& o, const std::string& x) {
  const std::string one = o.c(1.0);
  return o.div(one, x);
}

// y0 = 1 / sqrt(x); r = 1 - x y0^2 from x y0 = t + tl and t y0 = p + pl exactly: r = ((1 - p) - pl)
// - tl y0, where 1 - p is exact and the rest is far below r's last bit; y = y0 + y0 r / 2. The
// exact products need x within [2^-900, 2^900] (their halves' products must stay normal): other x
// are scaled by 2^+-1000 first and the result by 2^-+500. Where x is 0, +inf, negative or NaN the
// residual is NaN and y0 is already C's value (+-inf, +0, NaN): the last select keeps it.
std::string rsqrtOf(MathOps& o, const std::string& x, int maxUlp) {
  const std::string one = o.c(1.0);
  const std::string root = o.sqrt(x);
  const std::string y0 = o.div(one, root);
  if (maxUlp > 1 || o.isF32()) return y0;  // f32's 1-ULP tier runs this in f64
  const std::string huge = o.less(o.c(0x1p900), x);
  const std::string tiny = o.less(x, o.c(0x1p-900));
  const std::string inHugeOrOne = o.select(huge, o.c(0x1p-1000), one);
  const std::string scaleIn = o.select(tiny, o.c(0x1p1000), inHugeOrOne);
  const std::string outHugeOrOne = o.select(huge, o.c(0x1p500), one);
  const std::string scaleOut = o.select(tiny, o.c(0x1p-500), outHugeOrOne);
  const std::string xs = o.mul(x, scaleIn);
  const std::string ys = o.mul(y0, scaleOut);  // exact: 1 / sqrt(xs) rounded as y0 is
  const Product t = twoProduct(o, xs, ys);
  const Product p = twoProduct(o, t.p, ys);
  const std::string oneMinusP = o.sub(one, p.p);
  const std::string rHi = o.sub(oneMinusP, p.e);
  const std::string tlY = o.mul(t.e, ys);
  const std::string r = o.sub(rHi, tlY);
  const std::string correction = o.mul(o.mul(y0, o.c(0.5)), r);
  const std::string y = o.add(y0, correction);
  return o.select(o.equal(y, y), y, y0);
}

}  // namespace simdgen::math
