// SPDX-License-Identifier: Apache-2.0
#include "sim/interpreter.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>


namespace simdgen::sim {

namespace {

using ir::OpKind;
using ir::Stmt;

// One lane: integers as their 64-bit two's-complement pattern (sign-extended for signed types),
// floats as a double holding the exactly rounded float/double value.
struct Lane {
  uint64_t u = 0;
  double f = 0;
};
struct Value {
  ir::VecType type;
  std::vector<Lane> lanes;
};

uint64_t normalize(DType t, uint64_t v) {
  const int bits = bitsOf(t);
  if (bits == 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (isSigned(t) && (v >> (bits - 1)) & 1) v |= ~mask;
  return v;
}
double roundTo(DType t, double v) { return t == DType::f32 ? static_cast<double>(static_cast<float>(v)) : v; }

Lane readElem(DType t, const void* base, size_t i) {
  Lane l;
  const auto* p = static_cast<const unsigned char*>(base) + i * bytesOf(t);
  if (t == DType::f32) {
    float v;
    std::memcpy(&v, p, 4);
    l.f = v;
  } else if (t == DType::f64) {
    std::memcpy(&l.f, p, 8);
  } else {
    uint64_t v = 0;
    std::memcpy(&v, p, bytesOf(t));  // little endian
    l.u = normalize(t, v);
  }
  return l;
}
void writeElem(DType t, void* base, size_t i, Lane l) {
  auto* p = static_cast<unsigned char*>(base) + i * bytesOf(t);
  if (t == DType::f32) {
    float v = static_cast<float>(l.f);
    std::memcpy(p, &v, 4);
  } else if (t == DType::f64) {
    std::memcpy(p, &l.f, 8);
  } else {
    std::memcpy(p, &l.u, bytesOf(t));
  }
}

Lane convert(DType from, DType to, Lane l) {
  Lane r;
  if (isFloat(to)) {
    r.f = roundTo(to, isFloat(from) ? l.f : isSigned(from) ? double(int64_t(l.u)) : double(l.u));
  } else {
    r.u = normalize(to, l.u);  // integer widening keeps the value, narrowing wraps
  }
  return r;
}

// vdpbf16ps's arithmetic (ir::OpKind::DotBf16): the bf16 in half `half` of a u32 pair, a subnormal
// read as zero (its sign kept); a subnormal f32 result flushed to zero. A product of two bf16
// (8-bit significands) is exact in f32 unless it leaves f32's range, where f32 rounds it as the
// hardware does.
float bf16Half(uint64_t pair, int half) {
  const uint32_t bits = uint32_t(pair >> (16 * half) & 0xffffu) << 16;
  float x;
  std::memcpy(&x, &bits, 4);
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
float flushSubnormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// Arm bfdot's arithmetic (ir::OpKind::DotBf16Odd, QEMU's bfdotadd): the exact value s + e
// (|e| at most half an ulp of s) rounded to odd in f32: truncated, the last significand bit set
// when anything was cut off; 2^128 or more is an infinity; below the smallest normal (tininess
// before rounding) a zero of its sign.
float roundOddF32(double s, double e) {
  if (std::isnan(s)) return NAN;
  if (std::fabs(s) >= 0x1p128) return std::copysign(INFINITY, s);
  if (std::fabs(s) < double(FLT_MIN)) return std::copysign(0.0f, float(s));
  float t = float(s);
  if (std::fabs(double(t)) > std::fabs(s)) t = std::nextafter(t, 0.0f);  // toward zero
  if (double(t) == s) {
    if (e == 0) return t;  // exact
    if ((e < 0) != (s < 0)) t = std::nextafter(t, 0.0f);  // the exact value lies just inside s
  }
  if (std::fabs(t) < FLT_MIN) return std::copysign(0.0f, t);
  uint32_t bits;
  std::memcpy(&bits, &t, 4);
  bits |= 1u;
  std::memcpy(&t, &bits, 4);
  return t;
}
// x + y and x * y as bfdot computes them: inputs below the smallest normal read as zero, the
// exact result (two-sum; a product of f32 values is exact in double) rounded to odd.
float addRoundOdd(float x, float y) {
  const double a = flushSubnormal(x), b = flushSubnormal(y), s = a + b;
  if (!std::isfinite(s)) return float(s);
  const double bb = s - a, e = (a - (s - bb)) + (b - bb);
  return roundOddF32(s, e);
}
float mulRoundOdd(float x, float y) { return roundOddF32(double(flushSubnormal(x)) * double(flushSubnormal(y)), 0); }

// The bits of l (of type `from`) read as `to`, a type of the same width (ir::OpKind::Bitcast).
Lane bitcast(DType from, DType to, Lane l) {
  unsigned char bytes[8] = {};
  writeElem(from, bytes, 0, l);
  return readElem(to, bytes, 0);
}

// convert with a mode (ir::OpKind::Convert): integer saturation, float to integer with a rounding
// (out of range saturates, NaN is 0); every other case is the plain conversion.
Lane convert(DType from, DType to, Lane l, ConvMode mode) {
  if (isFloat(to) || mode == ConvMode::plain || mode == ConvMode::wrap) {
    if (isFloat(from) && !isFloat(to)) mode = ConvMode::trunc;  // the C cast truncates (in range)
    else return convert(from, to, l);
  }
  const int bits = bitsOf(to);
  Lane r;
  if (!isFloat(from)) {  // sat: clamp the exact value to to's range
    const bool sf = isSigned(from), st = isSigned(to);
    const int64_t smin = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    const uint64_t umax = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    const uint64_t smax = uint64_t(-(smin + 1));
    if (sf && int64_t(l.u) < 0) r.u = st ? uint64_t(int64_t(l.u) < smin ? smin : int64_t(l.u)) : 0;
    else r.u = l.u > (st ? smax : umax) ? (st ? smax : umax) : l.u;
    r.u = normalize(to, r.u);
    return r;
  }
  double x = l.f;
  if (x != x) return r;
  switch (mode) {
    case ConvMode::nearest: x = std::nearbyint(x); break;
    case ConvMode::floor: x = std::floor(x); break;
    case ConvMode::ceil: x = std::ceil(x); break;
    default: x = std::trunc(x); break;
  }
  const double lo = isSigned(to) ? -std::ldexp(1.0, bits - 1) : 0.0, hi = std::ldexp(1.0, isSigned(to) ? bits - 1 : bits);
  if (x < lo) r.u = normalize(to, uint64_t(int64_t(lo)));
  else if (x >= hi) r.u = isSigned(to) ? normalize(to, (uint64_t{1} << (bits - 1)) - 1) : normalize(to, ~uint64_t{0});
  else r.u = normalize(to, isSigned(to) ? uint64_t(int64_t(x)) : uint64_t(x));
  return r;
}

// C literals as the generated code spells them (see identityLiteral).
Lane parseLiteral(DType t, std::string s) {
  Lane l;
  const bool neg = s.rfind("-", 0) == 0;
  if (s.find("inf") != std::string::npos) {
    l.f = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return l;
  }
  if (s.rfind("(", 0) == 0) {  // "(-2147483647 - 1)": a signed minimum, spelled without overflow
    const int64_t v = std::stoll(s.substr(1, s.find(' ') - 1)) - 1;
    l.u = normalize(t, uint64_t(v));
    if (isFloat(t)) l.f = double(v);
    return l;
  }
  while (!s.empty() && (s.back() == 'u' || s.back() == 'l' || s.back() == 'f')) s.pop_back();
  if (isFloat(t)) {
    // As the compiler reads the literal: rounded once to the dtype (strtof for f32, no double
    // rounding), subnormals included (std::stod would throw on their ERANGE).
    l.f = t == DType::f32 ? double(std::strtof(s.c_str(), nullptr)) : std::strtod(s.c_str(), nullptr);
  } else {
    l.u = normalize(t, neg ? uint64_t(std::stoll(s)) : std::stoull(s));
  }
  return l;
}

Lane binary(ReduceOp op, DType t, Lane a, Lane b) {
  Lane r;
  if (isFloat(t)) {
    switch (op) {
      case ReduceOp::add: r.f = roundTo(t, a.f + b.f); break;
      case ReduceOp::mul: r.f = roundTo(t, a.f * b.f); break;
      case ReduceOp::min: r.f = a.f < b.f ? a.f : b.f; break;
      case ReduceOp::max: r.f = a.f > b.f ? a.f : b.f; break;
      default: throw std::logic_error("bitwise op on a float");
    }
    return r;
  }
  const bool s = isSigned(t);
  auto less = [&](Lane x, Lane y) { return s ? int64_t(x.u) < int64_t(y.u) : x.u < y.u; };
  switch (op) {
    case ReduceOp::add: r.u = a.u + b.u; break;
    case ReduceOp::mul: r.u = a.u * b.u; break;
    case ReduceOp::min: r = less(a, b) ? a : b; break;
    case ReduceOp::max: r = less(b, a) ? a : b; break;
    case ReduceOp::bit_and: r.u = a.u & b.u; break;
    case ReduceOp::bit_or: r.u = a.u | b.u; break;
    case ReduceOp::bit_xor: r.u = a.u ^ b.u; break;
  }
  r.u = normalize(t, r.u);
  return r;
}

bool compare(ir::Cmp c, DType t, Lane a, Lane b) {
  if (isFloat(t)) {
    switch (c) {
      case ir::Cmp::lt: return a.f < b.f;
      case ir::Cmp::le: return a.f <= b.f;
      case ir::Cmp::gt: return a.f > b.f;
      case ir::Cmp::ge: return a.f >= b.f;
      case ir::Cmp::eq: return a.f == b.f;
      case ir::Cmp::ne: return a.f != b.f;
    }
  }
  if (c == ir::Cmp::eq) return a.u == b.u;
  if (c == ir::Cmp::ne) return a.u != b.u;
  const bool lt = isSigned(t) ? int64_t(a.u) < int64_t(b.u) : a.u < b.u;
  const bool gt = isSigned(t) ? int64_t(a.u) > int64_t(b.u) : a.u > b.u;
  return c == ir::Cmp::lt ? lt : c == ir::Cmp::le ? !gt : c == ir::Cmp::gt ? gt : !lt;
}

struct Machine {
  const ir::Plan& plan;
  int vscale = 1;
  std::map<std::string, int64_t> symbols;
  std::map<std::string, Value> vars;
  std::map<std::string, Buffer> buffers;

  // Symbols are loop variables and parameters, or one-lane integer values (located indices).
  int64_t eval(const ir::Index& idx) const {
    int64_t v = 0;
    for (const auto& t : idx.terms) {
      int64_t p = t.coef;
      for (const auto& s : t.symbols) {
        auto it = symbols.find(s);
        p *= it != symbols.end() ? it->second : int64_t(vars.at(s).lanes.at(0).u);
      }
      v += p;
    }
    return v;
  }
  const Buffer& buffer(const ir::Tensor& t) const {
    auto it = buffers.find(t.name);
    if (it == buffers.end()) throw std::invalid_argument("no buffer for tensor '" + t.name + "'");
    return it->second;
  }
  const ir::Tensor& source(const Stmt& s) const { return plan.tensor(s.tensor); }
  int64_t bytesOfTensor(const std::string& name) const {
    for (const ir::Tensor& t : plan.tensors)
      if (t.name == name) return bytesOf(t.dtype);
    throw std::logic_error("aligned() of an unknown tensor " + name);
  }
  bool isNaN(int64_t i, const Stmt& s) const {
    const Lane x = in(i, s);
    return isFloat(source(s).dtype) && x.f != x.f;
  }
  Lane in(int64_t i, const Stmt& s) const {
    const ir::Tensor& t = source(s);
    const Buffer& b = buffer(t);
    if (i < 0 || size_t(i) >= b.elems)
      throw OutOfBounds("read of " + t.name + "[" + std::to_string(i) + "] outside 0.." + std::to_string(b.elems) +
                        " by '" + s.dst + "'");
    return readElem(t.dtype, b.data, size_t(i));
  }
  const Value& var(const std::string& n) const { return vars.at(n); }
  // Lane l of the op's governing predicate (every lane when it has none).
  bool active(const Stmt& s, int l) const { return s.pred.empty() || var(s.pred).lanes.at(l).u != 0; }
  Lane fill(const Stmt& s, DType t) const { return s.literal.empty() ? Lane{} : parseLiteral(t, s.literal); }
  // A splat's value: its literal, or the bits a scalar parameter is bound to.
  Lane splatValue(const Stmt& s, DType t) const {
    for (const ir::Param& p : plan.params)
      if (p.kind == ir::Param::Kind::scalar && p.name == s.literal) {
        const int64_t bits = symbols.at(p.name);  // the value's bytes, little endian
        return readElem(t, &bits, 0);
      }
    return parseLiteral(t, s.literal);
  }

  void exec(const Stmt& s) {
    const int lanes = s.type.lanesAt(vscale);
    Value v{s.type, std::vector<Lane>(lanes)};
    const DType t = s.type.elem;
    switch (s.op) {
      case OpKind::Splat: {
        const Lane x = s.args.empty() ? splatValue(s, t) : var(s.args[0]).lanes[0];
        for (auto& l : v.lanes) l = x;
        break;
      }
      case OpKind::Load: {
        const int64_t base = eval(s.index);
        if (s.packedElements) {  // consecutive elements as one little-endian value
          const int w = bitsOf(source(s).dtype), n = bitsOf(t) / w;
          uint64_t u = 0;
          for (int e = 0; e < n; ++e) u |= (in(base + e, s).u & (~uint64_t{0} >> (64 - w))) << (w * e);
          v.lanes[0].u = normalize(t, u);
          break;
        }
        for (int l = 0; l < lanes; ++l) {
          if (active(s, l)) {
            v.lanes[l] = in(base + l, s);
          } else {
            if (s.inBounds) in(base + l, s);  // the hardware may read it: the promise is checked
            v.lanes[l] = fill(s, t);
          }
        }
        break;
      }
      case OpKind::LoadBroadcast: {
        const Lane x = in(eval(s.index), s);
        for (auto& l : v.lanes) l = x;
        break;
      }
      case OpKind::GatherRows: {
        const int64_t base = eval(s.index), stride = eval(s.stride);
        if (s.readAhead >= 0 && stride > 0) {  // the span the hardware may read: the promise is checked
          int spanned = 0;  // lanes up to the last active one (all of them without a predicate)
          for (int r = 0; r < lanes; ++r)
            if (active(s, r)) spanned = r + 1;
          if (spanned > 0)
            for (int64_t e = base; e < base + (spanned + s.readAhead) * stride; ++e) in(e, s);
        }
        for (int r = 0; r < lanes; ++r)
          v.lanes[r] = active(s, r) ? convert(source(s).dtype, t, in(base + r * stride, s)) : fill(s, t);
        break;
      }
      case OpKind::LoadHalves: {
        const int64_t base = eval(s.index), other = base + eval(s.stride);
        for (int l = 0; l < lanes; ++l) v.lanes[l] = l < lanes / 2 ? in(base + l, s) : in(other + l - lanes / 2, s);
        break;
      }
      case OpKind::Extend: {
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) v.lanes[l] = convert(a.type.elem, t, a.lanes[s.part * lanes + l]);
        break;
      }
      case OpKind::Bitcast: {
        const Value& a = var(s.args[0]);
        if (a.lanes.size() == size_t(lanes)) {
          for (int l = 0; l < lanes; ++l) v.lanes[l] = bitcast(a.type.elem, t, a.lanes[l]);
          break;
        }
        std::vector<unsigned char> bytes(a.lanes.size() * size_t(bitsOf(a.type.elem) / 8));  // little-endian, lane 0 first
        for (size_t l = 0; l < a.lanes.size(); ++l) writeElem(a.type.elem, bytes.data(), l, a.lanes[l]);
        for (int l = 0; l < lanes; ++l) v.lanes[l] = readElem(t, bytes.data(), size_t(l));
        break;
      }
      case OpKind::Convert: {
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l)
          v.lanes[l] = s.saturateTo ? convert(*s.saturateTo, t, convert(a.type.elem, *s.saturateTo, a.lanes[l], s.conv), ConvMode::plain)
                                    : convert(a.type.elem, t, a.lanes[l], s.conv);
        break;
      }
      case OpKind::Binary: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) {
          if (!active(s, l)) v.lanes[l] = s.zeroing ? Lane{} : a.lanes[l];
          else if (s.type.predicate) v.lanes[l].u = binary(s.rop, DType::u8, a.lanes[l], b.lanes[l]).u & 1;
          else v.lanes[l] = binary(s.rop, t, a.lanes[l], b.lanes[l]);
        }
        break;
      }
      case OpKind::Fma: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]), &c = var(s.args[2]);
        for (int l = 0; l < lanes; ++l) {
          if (!active(s, l)) v.lanes[l] = s.zeroing ? Lane{} : a.lanes[l];
          else if (t == DType::f32)
            v.lanes[l].f = std::fma(float(b.lanes[l].f), float(c.lanes[l].f), float(a.lanes[l].f));
          else
            v.lanes[l].f = std::fma(b.lanes[l].f, c.lanes[l].f, a.lanes[l].f);
        }
        break;
      }
      case OpKind::DotU8I8:  // vpdpbusd, sdot, udot: four exact products, their sum added with wrap-around
      case OpKind::DotI8I8:
      case OpKind::DotU8U8: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]), &c = var(s.args[2]);
        const bool bSigned = s.op == OpKind::DotI8I8, cSigned = s.op != OpKind::DotU8U8;
        auto byte = [](uint64_t u, int h, bool isSigned) { return isSigned ? int64_t(int8_t(uint8_t(u >> (8 * h)))) : int64_t(uint8_t(u >> (8 * h))); };
        for (int l = 0; l < lanes; ++l) {
          uint64_t sum = a.lanes[l].u;
          for (int h = 0; h < 4; ++h) sum += uint64_t(byte(b.lanes[l].u, h, bSigned) * byte(c.lanes[l].u, h, cSigned));
          v.lanes[l].u = normalize(DType::i32, sum);
        }
        break;
      }
      case OpKind::DotI16I16: {  // vpmaddwd + vpaddd: two exact products, their sum added with wrap-around
        const Value &a = var(s.args[0]), &b = var(s.args[1]), &c = var(s.args[2]);
        auto half = [](uint64_t u, int h) { return int64_t(int16_t(uint16_t(u >> (16 * h)))); };
        for (int l = 0; l < lanes; ++l) {
          uint64_t sum = a.lanes[l].u;
          for (int h = 0; h < 2; ++h) sum += uint64_t(half(b.lanes[l].u, h) * half(c.lanes[l].u, h));
          v.lanes[l].u = normalize(DType::i32, sum);
        }
        break;
      }
      case OpKind::DotBf16: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]), &c = var(s.args[2]);
        for (int l = 0; l < lanes; ++l) {
          // Two FP32 FMAs (Intel's pseudo-code), every input read as zero when subnormal (the
          // accumulator too: DAZ), every result flushed (FTZ).
          float sum = flushSubnormal(float(a.lanes[l].f));
          for (int half : {1, 0}) sum = flushSubnormal(std::fmaf(bf16Half(b.lanes[l].u, half), bf16Half(c.lanes[l].u, half), sum));
          v.lanes[l].f = sum;
        }
        break;
      }
      case OpKind::DotBf16Odd: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]), &c = var(s.args[2]);
        for (int l = 0; l < lanes; ++l) {
          float p[2];
          for (int h = 0; h < 2; ++h) p[h] = mulRoundOdd(bf16Half(b.lanes[l].u, h), bf16Half(c.lanes[l].u, h));
          v.lanes[l].f = addRoundOdd(float(a.lanes[l].f), addRoundOdd(p[0], p[1]));
        }
        break;
      }
      case OpKind::Sub: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) {
          if (isFloat(t)) v.lanes[l].f = roundTo(t, a.lanes[l].f - b.lanes[l].f);
          else v.lanes[l].u = normalize(t, a.lanes[l].u - b.lanes[l].u);
        }
        break;
      }
      case OpKind::Neg: {
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) {
          if (isFloat(t)) v.lanes[l].f = -a.lanes[l].f;  // flips the sign bit (NaN, zeros too)
          else v.lanes[l].u = normalize(t, 0 - a.lanes[l].u);
        }
        break;
      }
      case OpKind::Div: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) {
          if (t == DType::f32) v.lanes[l].f = double(float(a.lanes[l].f) / float(b.lanes[l].f));
          else v.lanes[l].f = a.lanes[l].f / b.lanes[l].f;
        }
        break;
      }
      case OpKind::Sqrt: {  // in the dtype: sqrt of a float is correctly rounded by std::sqrt(float)
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l)
          v.lanes[l].f = t == DType::f32 ? double(std::sqrt(float(a.lanes[l].f))) : std::sqrt(a.lanes[l].f);
        break;
      }
      case OpKind::ScaleB: {  // a * 2^b rounded once in the dtype (ldexp of the dtype is)
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) {
          const double x = a.lanes[l].f, e = b.lanes[l].f;
          if (std::isnan(x) || std::isnan(e)) {
            v.lanes[l].f = std::numeric_limits<double>::quiet_NaN();
            continue;
          }
          const int k = int(std::max(-4000.0, std::min(4000.0, std::floor(e))));
          v.lanes[l].f = t == DType::f32 ? double(std::ldexp(float(x), k)) : std::ldexp(x, k);
        }
        break;
      }
      case OpKind::GetExp:
      case OpKind::GetMant: {  // exact in the dtype: the exponent of a value, and its significand
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) {
          const double x = std::fabs(a.lanes[l].f);
          const bool finite = std::isfinite(x) && x != 0;
          if (s.op == OpKind::GetExp)
            v.lanes[l].f = std::isnan(x) ? x : x == 0 ? -INFINITY : std::isinf(x) ? INFINITY : double(std::ilogb(x));
          else  // unspecified outside finite nonzero values: NaN, so that a plan that uses it shows
            v.lanes[l].f = finite ? std::ldexp(x, -std::ilogb(x)) : std::numeric_limits<double>::quiet_NaN();
        }
        break;
      }
      case OpKind::Round: {  // an integral value of a float is exact in its own dtype
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) {
          const double x = a.lanes[l].f;
          v.lanes[l].f = s.conv == ConvMode::floor ? std::floor(x) : s.conv == ConvMode::ceil ? std::ceil(x)
                       : s.conv == ConvMode::trunc ? std::trunc(x) : std::nearbyint(x);
        }
        break;
      }
      case OpKind::AddSat:
      case OpKind::SubSat:
      case OpKind::AvgRound: {
        // Lanes hold integers sign- or zero-extended to 64 bits: the exact result in 128 bits,
        // then clamped (add/sub) or halved (the mean always fits).
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        const int bits = bitsOf(t);
        const __int128 lo = isSigned(t) ? -((__int128)1 << (bits - 1)) : 0;
        const __int128 hi = isSigned(t) ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
        for (int l = 0; l < lanes; ++l) {
          const __int128 x = isSigned(t) ? (__int128)int64_t(a.lanes[l].u) : (__int128)a.lanes[l].u;
          const __int128 y = isSigned(t) ? (__int128)int64_t(b.lanes[l].u) : (__int128)b.lanes[l].u;
          __int128 r;
          if (s.op == OpKind::AvgRound) r = (x + y + 1) >> 1;
          else r = std::clamp(s.op == OpKind::AddSat ? x + y : x - y, lo, hi);
          v.lanes[l].u = normalize(t, uint64_t(r));
        }
        break;
      }
      case OpKind::AbsDiff: {
        // Integers: the exact distance in 128 bits, then wrapped to the lane; floats: the
        // difference rounded once, its sign cleared.
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) {
          if (isFloat(t)) {
            v.lanes[l].f = std::fabs(roundTo(t, a.lanes[l].f - b.lanes[l].f));
            continue;
          }
          const __int128 x = isSigned(t) ? (__int128)int64_t(a.lanes[l].u) : (__int128)a.lanes[l].u;
          const __int128 y = isSigned(t) ? (__int128)int64_t(b.lanes[l].u) : (__int128)b.lanes[l].u;
          v.lanes[l].u = normalize(t, uint64_t(x > y ? x - y : y - x));
        }
        break;
      }
      case OpKind::Popcount: {
        const Value& a = var(s.args[0]);
        const uint64_t bits = bitsOf(t) == 64 ? ~uint64_t{0} : (uint64_t{1} << bitsOf(t)) - 1;
        for (int l = 0; l < lanes; ++l) v.lanes[l].u = uint64_t(__builtin_popcountll(a.lanes[l].u & bits));
        break;
      }
      case OpKind::Abs: {
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) {
          if (isFloat(t)) v.lanes[l].f = std::fabs(a.lanes[l].f);
          else v.lanes[l].u = isSigned(t) && int64_t(a.lanes[l].u) < 0 ? normalize(t, 0 - a.lanes[l].u) : a.lanes[l].u;
        }
        break;
      }
      case OpKind::ShiftLeft:
      case OpKind::ShiftRight: {
        // Lanes hold integers sign- or zero-extended to 64 bits: >> of the extended value is the
        // arithmetic (signed) or logical (unsigned) shift; << wraps through normalize.
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l)
          v.lanes[l].u = s.op == OpKind::ShiftLeft ? normalize(t, a.lanes[l].u << s.part)
                         : isSigned(t)              ? uint64_t(int64_t(a.lanes[l].u) >> s.part)
                                                    : a.lanes[l].u >> s.part;
        break;
      }
      case OpKind::Select: {
        const Value &p = var(s.args[0]), &a = var(s.args[1]), &b = var(s.args[2]);
        for (int l = 0; l < lanes; ++l) v.lanes[l] = p.lanes[l].u ? a.lanes[l] : b.lanes[l];
        break;
      }
      case OpKind::DotAccumulate: {
        const Value &acc = var(s.args[0]), &x = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) {
          Lane sum = acc.lanes[l];
          for (int g = 0; g < s.group; ++g)
            sum = binary(ReduceOp::add, t, sum, convert(x.type.elem, t, x.lanes[l * s.group + g]));
          v.lanes[l] = sum;
        }
        break;
      }
      case OpKind::ReduceLanes: {
        std::vector<Lane> a = var(s.args[0]).lanes;
        for (size_t l = 0; l < a.size(); ++l)
          if (!active(s, int(l))) a[l] = parseLiteral(t, identityLiteral(s.rop, t));
        while (a.size() > 1) {
          const size_t h = a.size() / 2;
          for (size_t l = 0; l < h; ++l)
            a[l] = s.pairwise ? binary(s.rop, t, a[2 * l], a[2 * l + 1]) : binary(s.rop, t, a[l], a[l + h]);
          a.resize(h);
        }
        v.lanes = a;
        break;
      }
      case OpKind::ReduceRows: {
        // Each stage: rop(lower(a, b), upper(a, b)) on pairs, through the stage's shuffles.
        std::vector<std::vector<Lane>> vecs;
        for (const auto& n : s.args) vecs.push_back(var(n).lanes);
        for (size_t k = 0; k < s.network.blockLanes.size(); ++k) {
          const auto [lower, upper] = s.network.stage(k);
          const std::vector<int> lo = lower.laneMap(lanes, bitsOf(t)), hi = upper.laneMap(lanes, bitsOf(t));
          std::vector<std::vector<Lane>> next;
          for (size_t m = 0; m + 1 < vecs.size(); m += 2) {
            std::vector<Lane> both = vecs[m], out(static_cast<size_t>(lanes));
            both.insert(both.end(), vecs[m + 1].begin(), vecs[m + 1].end());
            for (int l = 0; l < lanes; ++l) out[size_t(l)] = binary(s.rop, t, both[size_t(lo[l])], both[size_t(hi[l])]);
            next.push_back(std::move(out));
          }
          vecs = std::move(next);
        }
        v.lanes = vecs.front();
        break;
      }
      case OpKind::Shuffle: {
        std::vector<Lane> all;
        for (const auto& n : s.args) all.insert(all.end(), var(n).lanes.begin(), var(n).lanes.end());
        const std::vector<int> map = s.shuffle.laneMap(lanes, bitsOf(t));
        for (int l = 0; l < lanes; ++l) v.lanes[l] = all.at(size_t(map.at(l)));
        break;
      }
      case OpKind::WhileLt: {
        const int64_t lo = eval(s.lo), hi = eval(s.hi);
        if (s.partialOnly && !(hi - lo > 0 && hi - lo < lanes))
          throw std::logic_error(s.dst + " = whilelt(" + std::to_string(lo) + ", " + std::to_string(hi) + ") was promised partial, with " +
                                 std::to_string(lanes) + " lanes");
        for (int l = 0; l < lanes; ++l) v.lanes[l].u = lo + l < hi ? 1 : 0;
        break;
      }
      case OpKind::Compare: {
        const Value &a = var(s.args[0]), &b = var(s.args[1]);
        for (int l = 0; l < lanes; ++l) v.lanes[l].u = compare(s.cmp, a.type.elem, a.lanes[l], b.lanes[l]) ? 1 : 0;
        break;
      }
      case OpKind::Not: {
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) v.lanes[l].u = a.lanes[l].u ? 0 : 1;
        break;
      }
      case OpKind::Fence: return;  // one thread: every store is visible at once
      case OpKind::Store: {
        const Value& a = var(s.args[0]);
        const ir::Tensor& ot = plan.outputTensor(s.tensor);
        const Buffer& o = buffer(ot);
        const int64_t base = eval(s.index);
        const int64_t width = int64_t(a.lanes.size());
        if (s.streaming && (!s.pred.empty() || base * bitsOf(ot.dtype) % (width * bitsOf(ot.dtype)) != 0))
          throw std::logic_error("streaming store to " + o.name + "[" + std::to_string(base) + "] is not vector-aligned or is predicated");
        for (int64_t l = 0; l < width; ++l) {
          if (!active(s, int(l))) continue;
          if (base + l < 0 || size_t(base + l) >= o.elems)
            throw OutOfBounds("write of " + o.name + "[" + std::to_string(base + l) + "] outside 0.." +
                              std::to_string(o.elems));
          writeElem(ot.dtype, o.out, size_t(base + l), a.lanes[l]);
        }
        return;
      }
      case OpKind::ScatterRows: {  // lanes in order: the highest of lanes meeting at one element wins
        const Value& a = var(s.args[0]);
        const ir::Tensor& ot = plan.outputTensor(s.tensor);
        const Buffer& o = buffer(ot);
        const int64_t base = eval(s.index), stride = eval(s.stride);
        for (int64_t l = 0; l < int64_t(a.lanes.size()); ++l) {
          if (!active(s, int(l))) continue;
          const int64_t at = base + l * stride;
          if (at < 0 || size_t(at) >= o.elems)
            throw OutOfBounds("write of " + o.name + "[" + std::to_string(at) + "] outside 0.." + std::to_string(o.elems));
          writeElem(ot.dtype, o.out, size_t(at), a.lanes[size_t(l)]);
        }
        return;
      }
      case OpKind::NaNMask: {
        const Value& a = var(s.args[0]);
        for (int l = 0; l < lanes; ++l) v.lanes[l].u = a.lanes[l].f != a.lanes[l].f ? normalize(t, ~uint64_t{0}) : 0;
        break;
      }
      case OpKind::LocateEqual: {
        const Lane want = var(s.args[0]).lanes[0];
        const int64_t base = eval(s.index), lo = eval(s.lo), hi = eval(s.hi);
        int64_t found = -1;
        for (int64_t k = 0; k < hi - lo; ++k) {
          const int64_t c = s.part ? hi - 1 - k : lo + k;
          if (compare(ir::Cmp::eq, source(s).dtype, in(base + c, s), want)) {
            found = c;
            break;
          }
        }
        v.lanes[0].u = uint64_t(found);
        break;
      }
      case OpKind::SetIndex:
        v.lanes[0].u = uint64_t(eval(s.index));
        break;
      case OpKind::LocateNaN: {
        const int64_t base = eval(s.index), lo = eval(s.lo), hi = eval(s.hi);
        int64_t found = -1;
        for (int64_t c = lo; c < hi && found < 0; ++c)
          if (isNaN(base + c, s)) found = c;
        v.lanes[0].u = uint64_t(found);
        break;
      }
    }
    vars[s.dst] = std::move(v);
  }

  void block(const ir::Block& b) {
    for (const Stmt& s : b) {
      switch (s.kind) {
        case Stmt::Kind::Comment: break;
        case Stmt::Kind::Op: exec(s); break;
        case Stmt::Kind::If:
          if (ir::holds(s.cmp, eval(s.cmpLhs), eval(s.cmpRhs))) block(s.body);
          break;
        case Stmt::Kind::Let:
          // aligned(): every tensor's element 0 sits at an address aligned for any vector.
          symbols[s.var] = s.alignBytes ? int64_t(eval(s.lo) * bytesOfTensor(s.tensor) % s.alignBytes == 0)
                           : s.letMin   ? std::min(eval(s.lo), eval(s.hi))
                           : s.letMax   ? std::max(eval(s.lo), eval(s.hi))
                           : !s.cpuTrait.empty() ? eval(s.hi)  // the value on CPUs without the trait
                           : s.roundDownTo ? eval(s.lo) / s.roundDownTo * s.roundDownTo
                                        : eval(s.lo);
          break;
        case Stmt::Kind::IfValues: {
          const Value &a = var(s.args[0]), &b = var(s.args[1]);
          if (compare(s.cmp, a.type.elem, a.lanes[0], b.lanes[0])) block(s.body);
          break;
        }
        case Stmt::Kind::For: {
          if (!s.continues) symbols[s.var] = eval(s.lo);
          const int64_t hi = eval(s.hi), step = eval(s.step);
          if (step <= 0) throw std::logic_error("loop " + s.var + " has step " + std::to_string(step));
          while (s.coversTail ? symbols[s.var] < hi : symbols[s.var] + step <= hi) {
            block(s.body);
            symbols[s.var] += step;
          }
          break;
        }
      }
    }
  }
};

}  // namespace

void runPlan(const ir::Plan& plan, const std::map<std::string, int64_t>& params, const std::vector<Buffer>& buffers,
             int vscale) {
  Machine m{plan, plan.scalable ? vscale : 1, {}, {}, {}};
  for (const Buffer& b : buffers) m.buffers[b.name] = b;
  // Scratch arrays start as NaN bytes: a plan that reads what it did not write shows.
  std::map<std::string, std::vector<unsigned char>> scratch;
  for (const ir::Tensor& t : plan.tensors)
    if (t.scratch) {
      const auto elems = t.extents.at(0).constantValue();
      if (!elems) throw std::logic_error("scratch tensor " + t.name + " has no static size");
      auto& mem = scratch[t.name];
      mem.assign(size_t(*elems) * size_t(bytesOf(t.dtype)), 0xFF);
      m.buffers[t.name] = Buffer{t.name, mem.data(), mem.data(), size_t(*elems)};
    }
  for (const auto& [name, value] : plan.constants) m.symbols[name] = value;
  if (plan.scalable) m.symbols[ir::kVscale] = m.vscale;
  for (const ir::Param& p : plan.params) {
    if (p.kind == ir::Param::Kind::tensor) continue;
    auto it = params.find(p.name);
    if (it == params.end()) throw std::invalid_argument("no value for plan parameter '" + p.name + "'");
    m.symbols[p.name] = it->second;
  }
  m.block(plan.body);
}

void runPlan(const ir::Plan& plan, const std::map<std::string, int64_t>& params, const void* input,
             size_t inputElems, void* output, size_t outputElems, int vscale) {
  runPlan(plan, params, {{plan.tensor("").name, input, nullptr, inputElems},
                         {plan.outputTensor("").name, nullptr, output, outputElems}}, vscale);
}

void runPlan(const ir::Plan& plan, const std::map<std::string, int64_t>& params, const void* input,
             size_t inputElems, const std::vector<OutputBuffer>& outputs, int vscale) {
  std::vector<Buffer> buffers{{plan.tensor("").name, input, nullptr, inputElems}};
  for (const OutputBuffer& o : outputs) buffers.push_back({o.name, nullptr, o.data, o.elems});
  runPlan(plan, params, buffers, vscale);
}

}  // namespace simdgen::sim
