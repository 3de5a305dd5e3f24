// SPDX-License-Identifier: Apache-2.0
// Printing values in failure messages: floats with their bits, so that -0.0 and NaN payloads show.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace simdgen_test {

// "123", "-1.5 [0xbfc00000]" (float bits shown so that -0.0 and NaN payloads are visible).
template <class T>
std::string show(T x) {
  char buf[96];
  if constexpr (std::is_floating_point_v<T>) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    Bits b;
    std::memcpy(&b, &x, sizeof b);
    std::snprintf(buf, sizeof buf, "%.*g [0x%0*" PRIx64 "]", std::numeric_limits<T>::max_digits10,
                  double(x), int(2 * sizeof(T)), uint64_t(b));
  } else if constexpr (std::is_signed_v<T>) {
    std::snprintf(buf, sizeof buf, "%lld", (long long)x);
  } else {
    std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
  }
  return buf;
}

}  // namespace simdgen_test
