// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `transpose` family: cases exec.NAME/sizes, /large and
// /guard_pages, run by transpose.cpp (compiled once: elements are moved as bytes, so the runner
// does not depend on the kernel's types).
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "kernel.h"

#define SIMDGEN_EXEC_FAMILY_CASES(X) X(sizes) X(large) X(guard_pages)

namespace simdgen_exec::transpose {

inline bool applies(std::string_view, const Kernel&) { return true; }

void run_sizes(const Kernel& kernel);
void run_large(const Kernel& kernel);
void run_guard_pages(const Kernel& kernel);

template <class Types>
void test_sizes(const Kernel& kernel) { run_sizes(kernel); }
template <class Types>
void test_large(const Kernel& kernel) { run_large(kernel); }
template <class Types>
void test_guard_pages(const Kernel& kernel) { run_guard_pages(kernel); }

}  // namespace simdgen_exec::transpose
