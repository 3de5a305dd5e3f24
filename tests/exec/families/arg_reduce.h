// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `arg_reduce` family: the cases exec.NAME/<case> (written in
// arg_reduce/cases.h), run by arg_reduce.cpp, which dispatches on the input's dtype to cases
// compiled once per dtype instead of in every spec's test.
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "kernel.h"

// The cases of the family, as X(case); `applies` says which ones a kernel runs.
#define SIMDGEN_EXEC_FAMILY_CASES(X)                                                                  \
  X(all_equal) X(ties) X(ends) X(lengths) X(monotonic) X(random_narrow) X(random_full) X(fuzz) X(misaligned) \
  X(guard_pages) X(nan) X(inf_zero) X(int_limits) X(initial) X(rows)

namespace simdgen_exec::arg_reduce {

// NaN and infinities for float inputs, the type's limits for integers, initial pairs when the spec
// has one, several rows when the input is 2-D; everything else always.
inline bool applies(std::string_view c, const Kernel& k) {
  const bool is_float = k.input().dtype[0] == 'f';
  if (c == "nan" || c == "inf_zero") return is_float;
  if (c == "int_limits") return !is_float;
  if (c == "initial") return k.has_semantic("initial_value");
  if (c == "rows") return k.input().extents.size() == 2;
  return true;
}

// Runs case `c` on kernel `k` (arg_reduce.cpp).
void run(std::string_view c, const Kernel& k);

#define SIMDGEN_ARG_REDUCE_TEST(c) \
  template <class Types>           \
  void test_##c(const Kernel& k) { \
    run(#c, k);                    \
  }
SIMDGEN_EXEC_FAMILY_CASES(SIMDGEN_ARG_REDUCE_TEST)
#undef SIMDGEN_ARG_REDUCE_TEST

}  // namespace simdgen_exec::arg_reduce
