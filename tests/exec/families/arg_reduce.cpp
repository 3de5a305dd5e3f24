// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `arg_reduce` family (declared in arg_reduce.h): runs a case
// with the cases of the input's dtype. Those are compiled once per dtype, each in its own
// translation unit (arg_reduce_type.cpp, built ten times), so that they build in parallel.
#include "arg_reduce.h"

#include <string_view>

#include "dtypes.h"

namespace simdgen_exec::arg_reduce {

// Defined in arg_reduce/cases.h, instantiated by arg_reduce_type.cpp for every dtype.
template <class T>
void run_case(std::string_view c, const Kernel& k);

void run(std::string_view c, const Kernel& k) {
  with_type(k.input().dtype, [&](auto t) { run_case<decltype(t)>(c, k); });
}

}  // namespace simdgen_exec::arg_reduce
