// SPDX-License-Identifier: Apache-2.0
// Independent scalar reference for reduce kernels, written from the spec semantics (docs), not
// from generated code: plain loops, integer wrap-around via unsigned arithmetic.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace simdgen_ref {

enum class Op { add, mul, min, max, bit_and, bit_or, bit_xor };

inline const char* op_name(Op op) {
  constexpr const char* names[] = {"add", "mul", "min", "max", "and", "or", "xor"};
  return names[static_cast<int>(op)];
}

// The op's identity in T: the result of an empty reduction.
template <class T>
T identity(Op op) {
  using L = std::numeric_limits<T>;
  switch (op) {
    case Op::add: return T(0);
    case Op::mul: return T(1);
    case Op::min: return L::has_infinity ? L::infinity() : L::max();
    case Op::max: return L::has_infinity ? -L::infinity() : L::lowest();
    case Op::bit_and:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(~std::make_unsigned_t<T>(0));
      break;
    case Op::bit_or:
    case Op::bit_xor: return T(0);
  }
  return T(0);
}

// acc op x. Integers wrap modulo 2^bits of T; float min/max skip NaN elements.
template <class T>
T combine(Op op, T acc, T x) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::add: return acc + x;
      case Op::mul: return acc * x;
      case Op::min: return std::isnan(x) ? acc : (x < acc ? x : acc);
      case Op::max: return std::isnan(x) ? acc : (x > acc ? x : acc);
      default: return acc;  // bitwise ops are not defined on floats
    }
  } else {
    using U = std::make_unsigned_t<T>;
    // Widen narrow unsigned types to `unsigned` so that u16*u16 cannot promote to signed int.
    using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    const W a = W(U(acc)), b = W(U(x));
    switch (op) {
      case Op::add: return static_cast<T>(U(a + b));
      case Op::mul: return static_cast<T>(U(a * b));
      case Op::min: return x < acc ? x : acc;
      case Op::max: return x > acc ? x : acc;
      case Op::bit_and: return static_cast<T>(U(a & b));
      case Op::bit_or: return static_cast<T>(U(a | b));
      case Op::bit_xor: return static_cast<T>(U(a ^ b));
    }
    return acc;
  }
}

// Left-to-right reduction of n elements p[0], p[step], ... in the output type Out.
// The accumulator starts at the identity of the INPUT type, converted: an empty min over int8
// into int32 gives 127, as the narrow loop would (add/mul: 0/1 either way).
template <class Out, class In>
Out reduce_line(Op op, const In* p, int64_t n, int64_t step) {
  Out acc = static_cast<Out>(identity<In>(op));
  for (int64_t k = 0; k < n; ++k) acc = combine<Out>(op, acc, static_cast<Out>(p[k * step]));
  return acc;
}

// The whole kernel: [rows, cols] input with row stride `stride`; axis 1 gives rows outputs,
// axis 0 gives cols outputs.
template <class Out, class In>
void reduce(Op op, int axis, const In* in, int64_t rows, int64_t cols, int64_t stride, Out* out) {
  if (axis == 1) {
    for (int64_t i = 0; i < rows; ++i) out[i] = reduce_line<Out>(op, in + i * stride, cols, 1);
  } else {
    for (int64_t j = 0; j < cols; ++j) out[j] = reduce_line<Out>(op, in + j, rows, stride);
  }
}

// Precise float add/mul for reassociated results: the value in long double plus magnitude
// bounds from which a comparison tolerance and possible intermediate overflow are derived.
struct Wide {
  long double value = 0;  // sum or product in long double
  long double abs_sum = 0;   // add: sum |x| (finite x only)
  long double hi = 1, lo = 1;  // mul: prod max(|x|,1) and prod min(|x|,1) over finite nonzero x
};

// The same in long double throughout: the fallback of reduce_line_wide.
template <class In>
Wide reduce_line_long(Op op, const In* p, int64_t n, int64_t step) {
  Wide w;
  w.value = op == Op::mul ? 1.0L : 0.0L;
  for (int64_t k = 0; k < n; ++k) {
    const long double x = static_cast<long double>(p[k * step]);
    if (op == Op::mul) {
      w.value *= x;
      const long double a = std::fabs(x);
      if (std::isfinite(a) && a != 0) (a > 1 ? w.hi : w.lo) *= a;
    } else {
      w.value += x;
      if (std::isfinite(x)) w.abs_sum += std::fabs(x);
    }
  }
  return w;
}

// reduce_line_long's result, computed in hardware doubles: AArch64's long double is a software
// quad float, which made that loop most of the emulated tests' time. The finite part is a
// double-double (hi + lo, about 104 significant bits: TwoSum for sums, an fma for the error of
// products; f32 data need no low part: a double's rounding is 2^-29 of the f32 tolerance). Inputs
// that are NaN or infinite decide the value on their own (no finite part can overflow in long
// double). Double's exponent range is all it has: when a partial result of finite data overflows,
// or a product gets small enough for its low part to lose bits, the line runs in long double.
template <class In>
Wide reduce_line_wide(Op op, const In* p, int64_t n, int64_t step) {
  if constexpr (std::is_integral_v<In> && sizeof(In) > 4) return reduce_line_long(op, p, n, step);  // inexact in double
  constexpr bool kCompensate = !std::is_same_v<In, float> && !(std::is_integral_v<In> && sizeof(In) <= 2);
  constexpr double kTiny = 0x1p-900;  // below it, lo (2^-106 of hi) would be subnormal
  const bool mul = op == Op::mul;
  double hi = mul ? 1.0 : 0.0, lo = 0, abs_sum = 0, big = 1, small = 1;
  bool nan = false, pos_inf = false, neg_inf = false, zero = false, negative = false, safe = true;
  for (int64_t k = 0; k < n; ++k) {
    const double x = static_cast<double>(p[k * step]);
    negative ^= std::signbit(x);
    if (!std::isfinite(x)) {
      nan |= std::isnan(x);
      (x > 0 ? pos_inf : neg_inf) |= !std::isnan(x);
      continue;
    }
    if (mul) {
      const double prod = hi * x;
      if constexpr (kCompensate) {
        const double tail = lo * x + std::fma(hi, x, -prod);
        hi = prod + tail;
        lo = tail - (hi - prod);
      } else {
        hi = prod;
      }
      const double a = std::fabs(x);
      zero |= a == 0;
      if (a != 0) (a > 1 ? big : small) *= a;
      safe &= std::isfinite(hi) && (hi == 0 || std::fabs(hi) >= kTiny);
    } else {
      const double sum = hi + x;
      if constexpr (kCompensate) {
        const double back = sum - hi;
        lo += (hi - (sum - back)) + (x - back);
      }
      hi = sum;
      abs_sum += std::fabs(x);
      safe &= std::isfinite(hi);
    }
  }
  Wide w;
  constexpr long double kInf = std::numeric_limits<long double>::infinity();
  if (nan || (mul ? (pos_inf || neg_inf) && zero : pos_inf && neg_inf)) w.value = std::numeric_limits<long double>::quiet_NaN();
  else if (pos_inf || neg_inf) w.value = mul ? (negative ? -kInf : kInf) : pos_inf ? kInf : -kInf;
  else if (!safe) return reduce_line_long(op, p, n, step);
  else w.value = static_cast<long double>(hi) + static_cast<long double>(lo);
  w.abs_sum = abs_sum;  // double overflows where long double may not: either way >= half of any output type's max
  w.hi = big;
  w.lo = small;
  return w;
}

}  // namespace simdgen_ref
