// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `contraction` family: cases exec.NAME/sizes, /large and
// /edges, run by contraction.cpp (compiled once: the runner reads the kernel's definition from
// its semantics and picks the element type from the tensors' dtype, so it does not depend on the
// kernel's C types).
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "kernel.h"

#define SIMDGEN_EXEC_FAMILY_CASES(X) X(sizes) X(large) X(edges)

namespace simdgen_exec::contraction {

// /large needs a runtime extent to grow; a kernel whose extents are all static runs its one shape
// in /sizes and /edges.
bool applies(std::string_view c, const Kernel& k);

void run_sizes(const Kernel& kernel);
void run_large(const Kernel& kernel);
void run_edges(const Kernel& kernel);

// The cases as the generated tests call them (the tensors' C types are not needed).
template <class Types>
void test_sizes(const Kernel& kernel) { run_sizes(kernel); }
template <class Types>
void test_large(const Kernel& kernel) { run_large(kernel); }
template <class Types>
void test_edges(const Kernel& kernel) { run_edges(kernel); }

}  // namespace simdgen_exec::contraction
