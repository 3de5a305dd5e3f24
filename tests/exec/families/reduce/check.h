// SPDX-License-Identifier: Apache-2.0
// Deciding whether one kernel output matches the reference, and printing values.
#pragma once

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "reduce_reference.h"
#include "show.h"

namespace simdgen_test {

using simdgen_ref::Op;

// The expected value of one output: the exact left-to-right result, plus (for reassociated
// float add/mul) the long double result with its magnitude bounds.
template <class Out>
struct Expected {
  Op op;
  Out exact;
  simdgen_ref::Wide wide;
  bool reassociated = false;  // compare against `wide` with a tolerance
  int64_t n = 0;              // reduced extent
};

// Integers, min/max and order:"sequential" must match exactly (NaN iff NaN, -0 == +0).
// Reassociated float add/mul: |got - ref| <= (n+2)*eps*magnitude; NaN iff NaN; infinities exact;
// when an intermediate may overflow/underflow (huge or tiny data) only finite results are checked.
template <class Out>
bool matches(const Expected<Out>& e, Out got, long double* tol_out = nullptr) {
  if constexpr (!std::is_floating_point_v<Out>) {
    (void)tol_out;
    return got == e.exact;
  } else {
    if (!e.reassociated) return std::isnan(got) ? std::isnan(e.exact) : got == e.exact;
    using L = std::numeric_limits<Out>;
    const long double v = e.wide.value, g = got, eps = L::epsilon(), n = (long double)e.n;
    const long double max = L::max();
    long double tol;
    bool lenient;
    if (e.op == Op::add) {
      tol = (n + 2) * eps * e.wide.abs_sum + n * L::denorm_min();
      lenient = e.wide.abs_sum >= max / 2;
    } else {
      tol = (n + 2) * eps * std::fabs(v) + L::denorm_min();
      lenient = e.wide.hi >= max / 2 || e.wide.lo < (long double)L::min() / eps;
    }
    if (tol_out) *tol_out = tol;
    if (std::isnan(v)) return std::isnan(got);
    const bool close = std::isfinite(got) && std::isfinite(v) && std::fabs(g - v) <= tol;
    if (lenient) return close || !std::isfinite(got) || got == 0 || g == v;
    if (std::isinf(v)) return g == v;
    return close;
  }
}

// The expected value as printed on failure: exact, or "~ value +- tolerance" when reassociated.
template <class Out>
std::string show_expected(const Expected<Out>& e) {
  if (!e.reassociated) return show(e.exact);
  long double tol = 0;
  matches(e, e.exact, &tol);
  char buf[96];
  std::snprintf(buf, sizeof buf, "~ %.21Lg +- %.3Lg", e.wide.value, tol);
  return buf;
}

}  // namespace simdgen_test
