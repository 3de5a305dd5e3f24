// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `map` family: cases exec.NAME/sizes, /extremes, /guard_pages
// and /in_place, run by map.cpp (compiled once: the runner does not depend on the kernel's types).
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "kernel.h"

#define SIMDGEN_EXEC_FAMILY_CASES(X) X(sizes) X(extremes) X(guard_pages) X(in_place)

namespace simdgen_exec::map {

inline bool applies(std::string_view c, const Kernel& k) {
  if (c != "in_place") return true;
  for (const auto& [key, value] : k.semantics)
    if (key.rfind("in_place.", 0) == 0) return true;
  return false;
}

void run_sizes(const Kernel& kernel);
void run_extremes(const Kernel& kernel);
void run_guard_pages(const Kernel& kernel);
void run_in_place(const Kernel& kernel);

// The cases as the generated tests call them (the other families' take the tensors' C types).
template <class Types>
void test_sizes(const Kernel& kernel) { run_sizes(kernel); }
template <class Types>
void test_extremes(const Kernel& kernel) { run_extremes(kernel); }
template <class Types>
void test_guard_pages(const Kernel& kernel) { run_guard_pages(kernel); }
template <class Types>
void test_in_place(const Kernel& kernel) { run_in_place(kernel); }

}  // namespace simdgen_exec::map
