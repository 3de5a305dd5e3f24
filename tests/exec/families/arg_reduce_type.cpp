// SPDX-License-Identifier: Apache-2.0
// The arg_reduce cases for one input dtype, SIMDGEN_ARG_REDUCE_TYPE (a C type, set by the build:
// tests/exec/arg_reduce_types.cmake compiles this file once per dtype).
#include "arg_reduce/cases.h"

#ifndef SIMDGEN_ARG_REDUCE_TYPE
#error "compile with -DSIMDGEN_ARG_REDUCE_TYPE=<C type> (tests/exec/arg_reduce_types.cmake)"
#endif

template void simdgen_exec::arg_reduce::run_case<SIMDGEN_ARG_REDUCE_TYPE>(std::string_view, const Kernel&);
