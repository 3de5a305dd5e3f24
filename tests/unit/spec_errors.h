// SPDX-License-Identifier: Apache-2.0
// The SpecError a spec text must raise (the unit tests of every family's spec errors).
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "spec/spec.h"

namespace simdgen::testing {

inline SpecError errorOf(const std::string& text) {
  try {
    parseSpecText(text, "t.json");
  } catch (const SpecError& e) {
    return e;
  }
  FAIL("expected a SpecError for:\n" << text);
  throw;
}

}  // namespace simdgen::testing
