// SPDX-License-Identifier: Apache-2.0
// The C types of the spec's integer and float dtypes, for family modules compiled once that
// dispatch on a tensor's dtype at run time.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace simdgen_exec {

// Calls f(T{}) for the C type T of `dtype` ("i8" ... "f64"); throws for any other name.
template <class F>
void with_type(const std::string& dtype, F f) {
  if (dtype == "i8") return f(int8_t{});
  if (dtype == "u8") return f(uint8_t{});
  if (dtype == "i16") return f(int16_t{});
  if (dtype == "u16") return f(uint16_t{});
  if (dtype == "i32") return f(int32_t{});
  if (dtype == "u32") return f(uint32_t{});
  if (dtype == "i64") return f(int64_t{});
  if (dtype == "u64") return f(uint64_t{});
  if (dtype == "f32") return f(float{});
  if (dtype == "f64") return f(double{});
  throw std::logic_error("exec driver: dtype '" + dtype + "' has no C type here (tests/exec/driver/dtypes.h)");
}

// The dtype's name of C type T.
template <class T>
constexpr const char* dtype_name() {
  if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? "f32" : "f64";
  else if constexpr (std::is_signed_v<T>) return sizeof(T) == 1 ? "i8" : sizeof(T) == 2 ? "i16" : sizeof(T) == 4 ? "i32" : "i64";
  else return sizeof(T) == 1 ? "u8" : sizeof(T) == 2 ? "u16" : sizeof(T) == 4 ? "u32" : "u64";
}

}  // namespace simdgen_exec
