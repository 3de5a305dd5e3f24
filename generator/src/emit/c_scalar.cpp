// SPDX-License-Identifier: Apache-2.0
#include "emit/c_scalar.h"

#include <cctype>
#include <cstdint>

namespace simdgen::emit::c {

std::string ctype(DType t) { return std::string(cTypeOf(t)); }

std::string call(const std::string& f, std::initializer_list<std::string> args) { return call(f, std::vector<std::string>(args)); }

std::string call(const std::string& f, const std::vector<std::string>& args) {
  std::string s = f + "(";
  for (size_t k = 0; k < args.size(); ++k) s += (k ? ", " : "") + args[k];
  return s + ")";
}

std::string identifierOf(const std::string& text) {
  std::string out;
  for (char ch : text) out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return out;
}

bool isZeroLiteral(const std::string& lit) {
  return lit == "0" || lit == "0u" || lit == "0ull" || lit == "0.0f" || lit == "0.0";
}

// The bits are identical (two's complement), wrap-around is defined, and GCC 12's loop vectorizer
// miscompiles reductions whose signed accumulators round-trip through unsigned casts.
bool carriedUnsigned(DType t, ReduceOp rop) {
  return !isFloat(t) && isSigned(t) && (rop == ReduceOp::add || rop == ReduceOp::mul);
}

std::string carrier(DType t, ReduceOp rop) {
  if (!carriedUnsigned(t, rop)) return ctype(t);
  return "uint" + std::to_string(bitsOf(t)) + "_t";
}

std::string carried(const std::string& x, DType t, ReduceOp rop) {
  return carriedUnsigned(t, rop) ? "(" + carrier(t, rop) + ")" + x : x;
}

std::string convert(const std::string& x, DType from, DType to, ReduceOp rop) {
  std::string v = carriedUnsigned(from, rop) ? "(" + ctype(from) + ")" + x : x;
  v = "(" + ctype(to) + ")" + v;
  return carriedUnsigned(to, rop) ? "(" + carrier(to, rop) + ")" + v : v;
}

namespace {

// An integer literal of the C type of t (a cast of a suffixed literal).
std::string intLiteral(DType t, bool negative, uint64_t magnitude) {
  std::string digits = std::to_string(magnitude);
  if (negative) digits = magnitude == (uint64_t{1} << 63) ? "(-9223372036854775807ll - 1)" : "-" + digits + "ll";
  else digits += "ull";
  return "(" + ctype(t) + ")" + digits;
}

// 2^e as an exact C floating literal of type t.
std::string powerOfTwo(DType t, int e, bool negative) {
  std::string digits = std::to_string(uint64_t{1} << (e > 63 ? 63 : e));
  if (e == 64) digits = "18446744073709551616";
  return (negative ? "-" : "") + digits + (t == DType::f32 ? ".0f" : ".0");
}

// The builtin rounding a float of type t to an integral value by mode (nearest: rint, which rounds
// ties to even in the default rounding mode).
std::string roundingBuiltin(DType t, ConvMode mode) {
  const char* fn = mode == ConvMode::nearest ? "__builtin_rint" : mode == ConvMode::floor ? "__builtin_floor"
                   : mode == ConvMode::ceil  ? "__builtin_ceil"
                                             : "__builtin_trunc";
  return std::string(fn) + (t == DType::f32 ? "f" : "");
}

}  // namespace

std::vector<std::string> convertLines(const std::string& target, const std::string& tmp, const std::string& x, DType from, DType to,
                                      ReduceOp rop, ConvMode mode) {
  if (isFloat(to) || mode == ConvMode::plain || mode == ConvMode::wrap) {
    if (!(isFloat(from) && !isFloat(to))) return {target + " = " + convert(x, from, to, rop) + ";"};
    mode = ConvMode::trunc;
  }
  const int bt = bitsOf(to), bf = bitsOf(from);
  const bool st = isSigned(to);
  const uint64_t maxMag = st ? (uint64_t{1} << (bt - 1)) - 1 : bt == 64 ? ~uint64_t{0} : (uint64_t{1} << bt) - 1;
  const std::string ct = ctype(to), cf = ctype(from), v = tmp + "_v";
  auto result = [&](const std::string& value) {
    return target + " = " + (carriedUnsigned(to, rop) ? "(" + carrier(to, rop) + ")" + value : value) + ";";
  };
  std::vector<std::string> out;
  const std::string lo = tmp + "_lo", hi = tmp + "_hi";  // named bounds keep every statement short
  if (!isFloat(from)) {  // sat: clamp in from's type, which holds the bounds that apply
    const bool sf = isSigned(from);
    out.push_back(cf + " " + v + " = " + (carriedUnsigned(from, rop) ? "(" + cf + ")" + x : x) + ";");
    if (sf && (!st || bt < bf)) {
      out.push_back("const " + cf + " " + lo + " = " + (st ? intLiteral(from, true, uint64_t{1} << (bt - 1)) : "(" + cf + ")0") + ";");
      out.push_back(v + " = " + v + " < " + lo + " ? " + lo + " : " + v + ";");
    }
    if (bt - (st ? 1 : 0) < bf - (sf ? 1 : 0)) {
      out.push_back("const " + cf + " " + hi + " = " + intLiteral(from, false, maxMag) + ";");
      out.push_back(v + " = " + v + " > " + hi + " ? " + hi + " : " + v + ";");
    }
    out.push_back(result("(" + ct + ")" + v));
    return out;
  }
  const bool f32 = from == DType::f32;
  const std::string fn = roundingBuiltin(from, mode);
  const std::string r = tmp + "_r", in = tmp + "_in", mx = tmp + "_max", mn = tmp + "_min";
  // An integer r in [lo, hi) converts exactly; NaN is in no range and stays 0.
  out.push_back("const " + cf + " " + r + " = " + fn + "(" + x + ");");
  out.push_back("const " + cf + " " + lo + " = " + (st ? powerOfTwo(from, bt - 1, true) : (f32 ? "0.0f" : "0.0")) + ";");
  out.push_back("const " + cf + " " + hi + " = " + powerOfTwo(from, st ? bt - 1 : bt, false) + ";");
  out.push_back("bool " + in + " = " + r + " >= " + lo + ";");
  out.push_back(in + " = " + in + " && " + r + " < " + hi + ";");
  out.push_back(ct + " " + v + " = " + in + " ? (" + ct + ")" + r + " : (" + ct + ")0;");
  out.push_back("const " + ct + " " + mx + " = " + intLiteral(to, false, maxMag) + ";");
  out.push_back(v + " = " + r + " >= " + hi + " ? " + mx + " : " + v + ";");
  if (st) {
    out.push_back("const " + ct + " " + mn + " = " + intLiteral(to, true, uint64_t{1} << (bt - 1)) + ";");
    out.push_back(v + " = " + r + " < " + lo + " ? " + mn + " : " + v + ";");
  }
  out.push_back(result(v));
  return out;
}

std::string binary(ReduceOp op, DType t, const std::string& a, const std::string& b) {
  const std::string ct = carrier(t, op);
  // min(a, a) = max(a, a) = a (NaN included): written as a comparison of a with itself, it is a
  // -Wtautological-compare warning for integers.
  if ((op == ReduceOp::min || op == ReduceOp::max) && a == b) return a;
  if (op == ReduceOp::min) return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
  if (op == ReduceOp::max) return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
  if (isFloat(t)) return "(" + a + (op == ReduceOp::add ? " + " : " * ") + b + ")";
  if (isBitwise(op)) {
    const char* sym = op == ReduceOp::bit_and ? " & " : op == ReduceOp::bit_or ? " | " : " ^ ";
    return "(" + ct + ")(" + a + sym + b + ")";
  }
  const char* sym = op == ReduceOp::add ? " + " : " * ";
  // 32/64-bit carriers are unsigned and do not promote: plain arithmetic wraps as intended.
  if (bitsOf(t) >= 32 && ct[0] == 'u') return "(" + a + sym + b + ")";
  const std::string ut = bitsOf(t) == 64 ? "uint64_t" : "uint32_t";
  return "(" + ct + ")((" + ut + ")" + a + (op == ReduceOp::add ? " + " : " * ") + "(" + ut + ")" + b + ")";
}

std::string sub(DType t, const std::string& a, const std::string& b, ReduceOp rop) {
  if (isFloat(t)) return "(" + a + " - " + b + ")";
  const std::string ct = carrier(t, rop), ut = bitsOf(t) == 64 ? "uint64_t" : "uint32_t";
  if (bitsOf(t) >= 32 && ct[0] == 'u') return "(" + a + " - " + b + ")";
  return "(" + ct + ")((" + ut + ")" + a + " - (" + ut + ")" + b + ")";
}

std::string abs(DType t, const std::string& x, ReduceOp rop) {
  if (isFloat(t)) return call(t == DType::f32 ? "__builtin_fabsf" : "__builtin_fabs", {x});
  if (!isSigned(t)) return x;
  const std::string ct = carrier(t, rop), ut = bitsOf(t) == 64 ? "uint64_t" : "uint32_t";
  const std::string real = carriedUnsigned(t, rop) ? "(" + ctype(t) + ")" + x : x;
  // Negated in unsigned arithmetic, so |MIN| wraps to MIN instead of overflowing.
  return "(" + ct + ")(" + real + " < 0 ? (" + ut + ")0 - (" + ut + ")" + x + " : (" + ut + ")" + x + ")";
}

std::string popcount(DType t, const std::string& x, ReduceOp rop) {
  // The bits of x's own width, zero-extended (a signed or carried value has more above them).
  return "(" + carrier(t, rop) + ")__builtin_popcountll((uint64_t)(" + ctype(unsignedOf(t)) + ")" + x + ")";
}

std::string sqrt(DType t, const std::string& x) { return call(t == DType::f32 ? "__builtin_sqrtf" : "__builtin_sqrt", {x}); }

std::string round(DType t, const std::string& x, ConvMode mode) { return call(roundingBuiltin(t, mode), {x}); }

std::string shift(bool left, DType t, const std::string& x, int count, ReduceOp rop) {
  const std::string ct = carrier(t, rop), c = std::to_string(count);
  // Left: in unsigned arithmetic of at least int's width (no promotion to a signed int, whose
  // overflow is undefined), the bits above the type dropped by the cast.
  if (left) return "(" + ct + ")((" + std::string(bitsOf(t) == 64 ? "uint64_t" : "uint32_t") + ")" + x + " << " + c + ")";
  // Right: in the real type, so signed values shift arithmetically (what GCC and Clang define).
  const std::string real = carriedUnsigned(t, rop) ? "(" + ctype(t) + ")" + x : x;
  return "(" + ct + ")(" + real + " >> " + c + ")";
}

std::vector<std::string> addSubSatLines(bool add, const std::string& target, const std::string& cast, const std::string& tmp, DType t,
                                        const std::string& a, const std::string& b) {
  // One short statement each (no nested ?:, which clang-format lays out in a way of its own).
  const std::string ct = ctype(t), op = add ? " + " : " - ", wide = tmp + "_wide";
  const int bits = bitsOf(t);
  if (bits < 64) {
    // Exact in a wider signed type, then clamped to t's limits (written in that type).
    const std::string w = bits < 32 ? "int32_t" : "int64_t", sfx = bits < 32 ? "" : "ll";
    const uint64_t top = (uint64_t{1} << (bits - (isSigned(t) ? 1 : 0))) - 1;
    const std::string hi = std::to_string(top) + sfx;
    const std::string lo = !isSigned(t) ? "0" : bits < 32 ? "-" + std::to_string(top + 1) : "(-" + std::to_string(top) + "ll - 1)";
    std::vector<std::string> out{"const " + w + " " + wide + " = (" + w + ")" + a + op + "(" + w + ")" + b + ";"};
    if (!isSigned(t) && add) return out.push_back(target + " = " + cast + "(" + ct + ")(" + wide + " > " + hi + " ? " + hi + " : " + wide + ");"), out;
    if (!isSigned(t)) return out.push_back(target + " = " + cast + "(" + ct + ")(" + wide + " < 0 ? 0 : " + wide + ");"), out;
    const std::string low = tmp + "_low";
    out.push_back("const " + w + " " + low + " = " + wide + " < " + lo + " ? " + lo + " : " + wide + ";");
    out.push_back(target + " = " + cast + "(" + ct + ")(" + low + " > " + hi + " ? " + hi + " : " + low + ");");
    return out;
  }
  if (!isSigned(t))
    return {"const uint64_t " + wide + " = " + a + op + b + ";",
            target + " = " + cast + "(" + (add ? wide + " < " + a + " ? UINT64_MAX : " + wide : a + " < " + b + " ? 0 : " + wide) + ");"};
  // Wrapped in unsigned arithmetic; it overflowed when the result's sign is wrong for the
  // operands' (then it saturates towards a's sign).
  const std::string bound = tmp + "_bound", flags = tmp + "_overflow";
  return {"const int64_t " + wide + " = (int64_t)((uint64_t)" + a + op + "(uint64_t)" + b + ");",
          "const int64_t " + flags + " = " + (add ? "(" + a + " ^ " + wide + ") & (" + b + " ^ " + wide + ")" : "(" + a + " ^ " + b + ") & (" + a + " ^ " + wide + ")") + ";",
          "const int64_t " + bound + " = " + a + " < 0 ? INT64_MIN : INT64_MAX;",
          target + " = " + cast + "(" + flags + " < 0 ? " + bound + " : " + wide + ");"};
}

std::string avgRound(DType t, const std::string& a, const std::string& b) {
  // Exact in 64 bits, shifted arithmetically (what GCC and Clang define for signed >>); 64-bit
  // lanes as (a | b) - ((a ^ b) >> 1), which never overflows.
  if (bitsOf(t) < 64) return "(" + ctype(t) + ")(((int64_t)" + a + " + (int64_t)" + b + " + 1) >> 1)";
  if (!isSigned(t)) return "((" + a + " | " + b + ") - ((" + a + " ^ " + b + ") >> 1))";
  return "(int64_t)((uint64_t)(" + a + " | " + b + ") - (uint64_t)((" + a + " ^ " + b + ") >> 1))";
}

}  // namespace simdgen::emit::c
