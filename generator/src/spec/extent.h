// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace simdgen {

// A dimension: a compile-time number, or a runtime parameter with a C identifier name.
struct Extent {
  std::optional<int64_t> value;  // set when static
  std::string name;              // set when runtime
  bool isStatic() const { return value.has_value(); }
};

}  // namespace simdgen
