// SPDX-License-Identifier: Apache-2.0
// exp, exp2, log and log2 for f32 and f64, without tables or branches.
//
// Every MathOps call appends ops and may create constants, so a call never takes two arguments
// that do (C++ leaves their order to the compiler, and the generated code must not depend on it):
// such operands are named first, one statement each.
//
// exp(x) = 2^n * e^r with n = nearest(x / ln2) and r = x - n * ln2 in [-ln2/2, ln2/2] (Cody and
// Waite: ln2 in two parts, the first with trailing zeros so that n times it is exact), e^r a
// polynomial, and 2^n applied as two exact powers of two, 2^n1 * 2^n2 with n1 + n2 = n, so that
// results below the normal range round once, through the subnormals, as C's exp does.
// log(x) = e * ln2 + log(m) with x = 2^e * m, m in [sqrt(1/2), sqrt(2)), log(m) = log1p(f) for
// f = m - 1 (exact) by fdlibm's form with s = f / (2 + f), whose errors are scaled by small terms.
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "plan/math/coefficients.h"
#include "plan/math/elementary.h"

namespace simdgen::math {

namespace {

namespace k = coefficients;

// 2^n for an integral float n in [-2^(exponent bits - 1) + 2, 2^(exponent bits - 1) - 1] (a normal
// power of two): n plus 1.5 * 2^mantissa plus the exponent bias has n + bias as its low bits, which
// the shift moves into the exponent field (the rest shifts out).
std::string powerOfTwo(MathOps& o, const std::string& n) {
  const double magic = o.isF32() ? 0x1.8p23 + 127 : 0x1.8p52 + 1023;
  return o.asFloat(o.shl(o.asInt(o.add(n, o.c(magic))), o.mantissaBits()));
}

// p * 2^n for an integral n in [-2 * emax - mantissa bits, 2 * emax]: two exact scalings, so that
// a result below the normal range is rounded once (gradual underflow) and one above it is infinity.
std::string scaleByPowerOfTwo(MathOps& o, const std::string& p, const std::string& n) {
  if (o.hasExponentOps()) return o.scaleB(p, n);  // the same result in one instruction (AVX-512 vscalefps)
  const std::string n1 = o.nearest(o.mul(n, o.c(0.5)));
  const std::string n2 = o.sub(n, n1);
  const std::string s1 = powerOfTwo(o, n1);
  const std::string s2 = powerOfTwo(o, n2);
  return o.mul(o.mul(p, s1), s2);
}

// x clamped to [lo, hi] with NaN kept: min(a, b) = a < b ? a : b takes b for NaN.
std::string clampKeepingNaN(MathOps& o, const std::string& x, double lo, double hi) {
  const std::string below = o.min(o.c(hi), x);
  return o.max(o.c(lo), below);
}

std::span<const double> pick(bool f32, int maxUlp, std::span<const double> f32u1, std::span<const double> f32u4,
                             std::span<const double> f64u1, std::span<const double> f64u4) {
  if (f32) return maxUlp <= 1 ? f32u1 : f32u4;
  return maxUlp <= 1 ? f64u1 : f64u4;
}

// e^r * 2^n for r = rHi + corr in [-ln2/2, ln2/2], rHi exact and corr tiny. r itself is rounded, so
// it feeds only the polynomial's small term: e^r = 1 + rHi + (corr + r^2 * g(r)), summed small to
// large, keeps the error of a result in [sqrt(1/2), 1) (whose ULP is half that of [1, 2)) within
// the bound.
std::string expOfReduced(MathOps& o, const std::string& n, const std::string& rHi, const std::string& corr, int maxUlp) {
  const bool f32 = o.isF32();
  const std::string r = o.add(rHi, corr);
  const std::string g = o.horner(r, pick(f32, maxUlp, k::kExpF32Ulp1, k::kExpF32Ulp4, k::kExpF64Ulp1, k::kExpF64Ulp4));
  const std::string small = o.fma(o.mul(r, r), g, corr);
  const std::string one = o.c(1.0);
  const std::string p = o.add(o.add(rHi, small), one);
  return scaleByPowerOfTwo(o, p, n);
}

// x = n ln2 + rHi + corr for x clamped to [lo, hi] (NaN kept): n = nearest(x / ln2), and
// rHi = x - n ln2Hi exact (so is n ln2Hi, and the difference of two close values).
struct ExpArgument {
  std::string n, rHi, corr;
};
ExpArgument reduceByLn2(MathOps& o, const std::string& x0, double lo, double hi) {
  const bool f32 = o.isF32();
  const std::string x = clampKeepingNaN(o, x0, lo, hi);
  const double ln2Hi = f32 ? 0x1.62e4p-1 : 0x1.62e42fee00000p-1, ln2Lo = f32 ? 0x1.7f7d1cp-20 : 0x1.a39ef35793c76p-33;
  const std::string n = o.nearest(o.mul(x, o.c(f32 ? double(float(M_LOG2E)) : M_LOG2E)));
  const std::string rHi = o.fma(n, o.c(-ln2Hi), x);
  return {n, rHi, o.mul(n, o.c(-ln2Lo))};
}

}  // namespace

std::string expOf(MathOps& o, const std::string& x0, int maxUlp) {
  // Past these the result is +inf or +0 (n stays within what scaleByPowerOfTwo takes).
  const ExpArgument a = o.isF32() ? reduceByLn2(o, x0, -104.0, 89.0) : reduceByLn2(o, x0, -746.0, 710.0);
  return expOfReduced(o, a.n, a.rHi, a.corr, maxUlp);
}

// 2^x = 2^n * e^(f * ln2) with n = nearest(x) and f = x - n (exact). f * ln2 is split as exp's r:
// f's high part (12 or 26 bits) times ln2's (12 or 21 bits) is exact, the rest is tiny.
std::string exp2Of(MathOps& o, const std::string& x0, int maxUlp) {
  const bool f32 = o.isF32();
  const std::string x = f32 ? clampKeepingNaN(o, x0, -152.0, 129.0) : clampKeepingNaN(o, x0, -1077.0, 1025.0);
  const std::string n = o.nearest(x);
  const std::string f = o.sub(x, n);
  const double split = f32 ? 0x1p12 : 0x1p26;
  const std::string fScaled = o.nearest(o.mul(f, o.c(split)));
  const std::string fHi = o.mul(fScaled, o.c(1.0 / split));
  const std::string fLo = o.sub(f, fHi);
  const double ln2Hi = f32 ? 0x1.62ep-1 : 0x1.62e43p-1, ln2Lo = f32 ? 0x1.0bfbe8p-15 : -0x1.05c610ca86c39p-29;
  const std::string loTerm = o.mul(fLo, o.c(f32 ? double(float(M_LN2)) : M_LN2));
  const std::string corr = o.fma(fHi, o.c(ln2Lo), loTerm);
  return expOfReduced(o, n, o.mul(fHi, o.c(ln2Hi)), corr, maxUlp);
}

namespace {

// The parts of log(x) for finite x > 0: e (an integral float) and f = m - 1 with x = 2^e * m,
// m in [sqrt(1/2), sqrt(2)). Subnormal x is scaled into the normal range first (unless the caller
// knows there is none).
struct LogParts {
  std::string e, f;
};
LogParts logParts(MathOps& o, const std::string& x, bool subnormals = true) {
  const bool f32 = o.isF32();
  if (o.hasExponentOps()) {
    // The same e and m from AVX-512's exponent and significand (subnormals included): m1 in [1, 2)
    // is halved where it reaches 2 sqrt(1/2) (the integer form's threshold, rounded as there).
    const std::string m1 = o.getMant(x);
    const std::string e1 = o.getExp(x);
    const std::string low = o.less(m1, o.c(f32 ? double(0x1.6a09e6p+0f) : 0x1.6a09e667f3bcdp+0));
    const std::string half = o.mul(m1, o.c(0.5));
    const std::string m = o.select(low, m1, half);
    const std::string eUp = o.add(e1, o.c(1.0));
    const std::string e = o.select(low, e1, eUp);
    return {e, o.sub(m, o.c(1.0))};
  }
  const double minNormal = f32 ? 0x1p-126 : 0x1p-1022, up = f32 ? 0x1p25 : 0x1p54, upBits = f32 ? 25 : 54;
  std::string xs = x, bias;
  if (subnormals) {
    const std::string tiny = o.less(x, o.c(minNormal));
    xs = o.select(tiny, o.mul(x, o.c(up)), x);
    const std::string scaledBias = o.c(-upBits);
    bias = o.select(tiny, scaledBias, o.c(0.0));
  }
  // u = bits(x) - bits(sqrt(1/2)): its exponent field is e, its mantissa field m's offset from sqrt(1/2).
  const int64_t sqrtHalf = f32 ? 0x3f3504f3 : 0x3fe6a09e667f3bcd;
  const std::string xBits = o.asInt(xs);
  const std::string u = o.isub(xBits, o.ci(sqrtHalf));
  const int mb = o.mantissaBits();
  const std::string offset = o.iand(u, o.ci((int64_t{1} << mb) - 1));
  const std::string m = o.asFloat(o.iadd(offset, o.ci(sqrtHalf)));
  // e as a float without a conversion instruction: added to the bits of 1.5 * 2^mantissa it is
  // that float's distance from 1.5 * 2^mantissa.
  const double magic = f32 ? 0x1.8p23 : 0x1.8p52;
  const std::string exponent = o.sar(u, mb);
  const std::string magicValue = o.c(magic);
  const std::string magicBits = o.asInt(magicValue);
  const std::string e = o.sub(o.asFloat(o.iadd(exponent, magicBits)), magicValue);
  const std::string eTotal = subnormals ? o.add(e, bias) : e;
  return {eTotal, o.sub(m, o.c(1.0))};
}

// fdlibm's terms of log1p(f) = f - (hfsq - s * (hfsq + R)): s = f / (2 + f), R = z * Q(z) with
// z = s^2, hfsq = f^2 / 2 (log and log2 share them).
struct Log1pTerms {
  std::string s, R, hfsq;
};
Log1pTerms log1pTerms(MathOps& o, const std::string& f, int maxUlp) {
  const bool f32 = o.isF32();
  const std::string s = o.div(f, o.add(f, o.c(2.0)));
  const std::string z = o.mul(s, s);
  const std::string R = o.mul(z, o.horner(z, f32 ? std::span<const double>(k::kLogF32Ulp1)
                                                  : maxUlp <= 1 ? std::span<const double>(k::kLogF64Ulp1)
                                                                : std::span<const double>(k::kLogF64Ulp4)));
  const std::string f2 = o.mul(f, f);
  const std::string hfsq = o.mul(f2, o.c(0.5));
  return {s, R, hfsq};
}

// log(x) for the finite x > 0 of logParts, plus `extraLo` (a term far below the result's ULP, or
// empty).
std::string logOfParts(MathOps& o, const LogParts& lp, int maxUlp, const std::string& extraLo = "") {
  const bool f32 = o.isF32();
  const std::string& e = lp.e;
  const std::string& f = lp.f;
  const double ln2Hi = f32 ? 0x1.62e4p-1 : 0x1.62e42fee00000p-1, ln2Lo = f32 ? 0x1.7f7d1cp-20 : 0x1.a39ef35793c76p-33;
  if (f32 && maxUlp > 1) {
    // No division: log1p(f) = f + f^2 * (-1/2 + f * h(f)).
    const std::string h = o.horner(f, k::kLogNodivF32Ulp4);
    const std::string t = o.fma(f, h, o.c(-0.5));
    const std::string l0 = o.fma(o.mul(f, f), t, f);
    const std::string l = extraLo.empty() ? l0 : o.add(l0, extraLo);
    const std::string low = o.fma(e, o.c(ln2Lo), l);
    return o.fma(e, o.c(ln2Hi), low);
  }
  const auto [s, R, hfsq] = log1pTerms(o, f, maxUlp);
  // e*ln2Hi - ((hfsq - (s * (hfsq + R) + e*ln2Lo)) - f)
  const std::string sum = o.add(hfsq, R);
  const std::string ln2LoValue = o.c(ln2Lo);
  const std::string eLo = extraLo.empty() ? o.mul(e, ln2LoValue) : o.fma(e, ln2LoValue, extraLo);
  const std::string inner = o.fma(s, sum, eLo);
  const std::string d = o.sub(o.sub(hfsq, inner), f);
  const std::string minusD = o.neg(d);
  return o.fma(e, o.c(ln2Hi), minusD);
}

// log2(x) for the finite x > 0 of logParts, as fdlibm's log2: log1p(f) = hi + lo with hi's low bits
// cleared, so that hi times 1/ln2's high part is exact; e + that product summed with its rounding
// error kept (Fast2Sum: |e| >= 1 > |hi / ln2| unless e = 0).
std::string log2OfParts(MathOps& o, const LogParts& lp, int maxUlp) {
  const bool f32 = o.isF32();
  const std::string& e = lp.e;
  const std::string& f = lp.f;
  const auto [s, R, hfsq] = log1pTerms(o, f, maxUlp);
  const std::string hiBits = o.asInt(o.sub(f, hfsq));
  const std::string hi = o.asFloat(o.iand(hiBits, o.ci(f32 ? int64_t(int32_t(0xfffff000u)) : int64_t(0xffffffff00000000ull))));
  const std::string sum = o.add(hfsq, R);
  const std::string rest = o.sub(o.sub(f, hi), hfsq);
  const std::string lo = o.fma(s, sum, rest);
  const double ivln2Hi = f32 ? 0x1.716p+0 : 0x1.71547652p+0, ivln2Lo = f32 ? -0x1.7135a8p-13 : 0x1.705fc2eefa2p-33;
  const std::string valHi = o.mul(hi, o.c(ivln2Hi));
  const std::string loHi = o.mul(lo, o.c(ivln2Hi));
  const std::string both = o.add(lo, hi);
  const std::string valLo = o.fma(both, o.c(ivln2Lo), loHi);
  const std::string w = o.add(e, valHi);
  const std::string error = o.add(o.sub(e, w), valHi);  // Fast2Sum: what e + valHi lost
  return o.add(o.add(valLo, error), w);
}

}  // namespace

// log and log2 with C's special values: log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN kept.
std::string logOf(MathOps& o, const std::string& x, int maxUlp, bool base2) {
  const bool f32 = o.isF32();
  const LogParts parts = logParts(o, x);
  std::string y = base2 ? log2OfParts(o, parts, maxUlp) : logOfParts(o, parts, maxUlp);
  const std::string inf = o.bitsConstant(f32 ? 0x7f800000 : 0x7ff0000000000000);
  y = o.select(o.less(x, inf), y, x);  // +inf and NaN give themselves
  const std::string zero = o.c(0.0);
  const std::string nan = o.bitsConstant(f32 ? 0x7fc00000 : 0x7ff8000000000000);
  y = o.select(o.less(x, zero), nan, y);
  const std::string minusInf = o.bitsConstant(f32 ? 0xff800000 : 0xfff0000000000000);
  return o.select(o.equal(x, zero), minusInf, y);
}

std::string withSignOf(MathOps& o, const std::string& y, const std::string& x) {
  const std::string xBits = o.asInt(x);
  const std::string sign = o.iand(xBits, o.ci(o.isF32() ? int64_t(INT32_MIN) : INT64_MIN));
  return o.asFloat(o.ior(o.asInt(y), sign));
}

namespace {

// 2^-n for an integral float n, clamped where it no longer matters next to 1 (n above the normal range).
std::string reciprocalPowerOfTwo(MathOps& o, const std::string& n) {
  const std::string minusN = o.neg(n);
  return powerOfTwo(o, o.max(o.c(o.isF32() ? -126.0 : -1022.0), minusN));
}

// a + b = s + err exactly, for any a and b (Knuth's TwoSum).
struct TwoSum {
  std::string s, err;
};
TwoSum twoSum(MathOps& o, const std::string& a, const std::string& b) {
  const std::string s = o.add(a, b);
  const std::string bb = o.sub(s, a);
  const std::string aa = o.sub(s, bb);
  const std::string aErr = o.sub(a, aa);
  const std::string bErr = o.sub(b, bb);
  return {s, o.add(aErr, bErr)};
}

}  // namespace

// expm1(x) = 2^n (e^r - 1 + 1 - 2^-n) with exp's n and r = rHi + corr. e^r - 1 = rHi + (h + lo)
// with h = rHi^2 / 2 rounded once and lo = r^3 g3(r) + the rest (h's rounding error where the
// target fuses, corr (1 + rHi + corr / 2)): the polynomial's error is scaled by r^3, not r^2 as in exp,
// because the result can be as small as r. 1 - 2^-n = A + aLo exactly (TwoSum) and A + rHi =
// s + sLo exactly (Fast2Sum: |A| >= 1/2 > |rHi| unless A = 0), so the bracket is rounded once, at
// the end, and scaled by 2^n exactly (the result is >= -1 and, for n < 0, at least 1/4 in
// magnitude: no subnormals). expm1(-inf) = -1, (+inf) = +inf, (+-0) = +-0.
std::string expm1Of(MathOps& o, const std::string& x0, int maxUlp) {
  const bool f32 = o.isF32();
  // Below the lower bound the result is -1 (and 2^-n stays finite); above the upper one, +inf.
  const auto [n, rHi, corr] = f32 ? reduceByLn2(o, x0, -80.0, 89.0) : reduceByLn2(o, x0, -700.0, 710.0);
  const std::string r = o.add(rHi, corr);
  const std::string halfRHi = o.mul(rHi, o.c(0.5));
  const std::string h = o.mul(halfRHi, rHi);
  // r^2 / 2 - h = rHi corr + corr^2 / 2 (corr^2 matters for large n in f64).
  const std::string rHiAndHalfCorr = o.fma(corr, o.c(0.5), rHi);
  std::string rest = o.fma(rHiAndHalfCorr, corr, corr);
  if (o.fused()) {
    const std::string minusH = o.neg(h);
    const std::string hError = o.fma(halfRHi, rHi, minusH);  // exact
    rest = o.add(rest, hError);
  }
  const std::string g3 = o.horner(r, pick(f32, maxUlp, k::kExpm1F32Ulp1, k::kExpm1F32Ulp1, k::kExpm1F64Ulp1, k::kExpm1F64Ulp4));
  const std::string r3 = o.mul(o.mul(r, r), r);
  const std::string lo = o.fma(r3, g3, rest);
  const std::string one = o.c(1.0);
  const std::string minusPow = o.neg(reciprocalPowerOfTwo(o, n));
  const TwoSum a = twoSum(o, one, minusPow);
  const std::string s = o.add(a.s, rHi);
  const std::string sLo = o.add(o.sub(a.s, s), rHi);
  const std::string hLo = o.add(h, lo);
  const std::string low = o.add(o.add(sLo, a.err), hLo);
  const std::string y = scaleByPowerOfTwo(o, o.add(s, low), n);
  return withSignOf(o, y, x0);
}

// log1p(x) = log(u) + log(1 + c/u) with 1 + x = u + c exactly (TwoSum), u = 2^e m as log's parts,
// f = m - 1. Where e = 0, u - 1 + c is x itself, so f = x and there is no c; elsewhere the result
// is at least 0.28 in magnitude and c/u = c 2^-e / m, which weighs at most a few ULP, is enough to
// first order, with 1/m = 1/(1 + f) as 1 - f + f^2 - f^3 + f^4 (relative error under 2^-6).
// log1p(-1) = -inf, (x < -1) = NaN, (+inf) = +inf, (+-0) = +-0.
std::string log1pOf(MathOps& o, const std::string& x, int maxUlp) {
  const bool f32 = o.isF32();
  const std::string one = o.c(1.0);
  const TwoSum sum = twoSum(o, one, x);
  const std::string& u = sum.s;
  LogParts lp = logParts(o, u, /*subnormals=*/false);  // u is 0 or at least 2^-mantissa bits
  const std::string zero = o.c(0.0);
  const std::string unscaled = o.equal(lp.e, zero);
  lp.f = o.select(unscaled, x, lp.f);
  const std::string cScaled = o.mul(sum.err, reciprocalPowerOfTwo(o, lp.e));
  static constexpr double kInverseOnePlus[] = {1.0, -1.0, 1.0, -1.0, 1.0};
  const std::string inverseM = o.horner(lp.f, kInverseOnePlus);
  const std::string correction = o.mul(cScaled, inverseM);
  const std::string extra = o.select(unscaled, zero, correction);
  std::string y = logOfParts(o, lp, maxUlp, extra);
  const std::string inf = o.bitsConstant(f32 ? 0x7f800000 : 0x7ff0000000000000);
  y = o.select(o.less(u, inf), y, u);  // +inf and NaN give themselves
  const std::string nan = o.bitsConstant(f32 ? 0x7fc00000 : 0x7ff8000000000000);
  y = o.select(o.less(u, zero), nan, y);
  const std::string minusInf = o.bitsConstant(f32 ? 0xff800000 : 0xfff0000000000000);
  y = o.select(o.equal(u, zero), minusInf, y);
  return withSignOf(o, y, x);
}

}  // namespace simdgen::math
