// SPDX-License-Identifier: Apache-2.0
#pragma once
// What lift knows about one `for` loop once its body has been evaluated symbolically: the
// trip range, and the new value of every variable the body changes. No clang headers.
#include <optional>
#include <string>
#include <vector>

#include "clang/lift/sym.h"

namespace simdgen::lift {

struct CarriedVar {
  std::string name;
  ScalarType type;
  SymPtr next;  // its value after one iteration
};

struct LoopModel {
  std::string function;
  std::string inductionName;
  ScalarType inductionType;
  std::string startText, endText;  // i runs over [start, end), or [start, end] when inclusive
  bool inclusive = false;
  std::optional<long long> tripCount;  // when start and end are compile-time constants
  std::vector<CarriedVar> carried;  // only the variables the body changes
  std::string loopText;             // the loop's source, kept by rewrites that need a fallback
};

// An element-wise loop: `out[i + k] = expr;` for each output, no carried variables.
struct MapStore {
  std::string base;  // the output array, as written
  long long offset = 0;
  ScalarType type;   // the stored element's type
  SymPtr value;      // converted to `type` when the assignment converts
};

struct MapModel {
  LoopModel loop;
  std::vector<MapStore> stores;  // in source order
};

}  // namespace simdgen::lift
