// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `reduce` family: cases exec.NAME/random, /extremes and
// /guard_pages, run by reduce.cpp (compiled once: it dispatches on the tensors' dtypes).
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "kernel.h"

// The cases every reduce kernel runs, as X(case).
#define SIMDGEN_EXEC_FAMILY_CASES(X) X(random) X(extremes) X(guard_pages)

namespace simdgen_exec::reduce {

inline bool applies(std::string_view, const Kernel&) { return true; }

void run_random(const Kernel& kernel);
void run_extremes(const Kernel& kernel);
void run_guard_pages(const Kernel& kernel);

template <class Types>
void test_random(const Kernel& kernel) { run_random(kernel); }
template <class Types>
void test_extremes(const Kernel& kernel) { run_extremes(kernel); }
template <class Types>
void test_guard_pages(const Kernel& kernel) { run_guard_pages(kernel); }

}  // namespace simdgen_exec::reduce
