// SPDX-License-Identifier: Apache-2.0
// One call of an Arm variant of matmul_i8_i32 (i8 x i8) or matmul_u8i8_i32 (u8 x i8, with a
// bias), 48 x 64 x 256, between two calls of a never-inlined marker, for counting its executed
// instructions under qemu (bench/arm_icount/matmul_int8_icount.sh). Prints the output's sum.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "matmul_i8_i32.h"
#include "matmul_u8i8_i32.h"

// Weak: a variant an older generated file does not have is null (the run then exits with 2).
#pragma weak matmul_i8_i32_sve
#pragma weak matmul_i8_i32_neon_dotprod
#pragma weak matmul_u8i8_i32_sve_i8mm
#pragma weak matmul_u8i8_i32_neon_i8mm
#pragma weak matmul_u8i8_i32_neon_dotprod

__attribute__((noinline)) void icount_mark(int n) { asm volatile("" ::"r"(n)); }

using I8Kernel = void (*)(const int8_t*, const int8_t*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int32_t*);
using U8I8Kernel = void (*)(const uint8_t*, const int8_t*, const int32_t*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int32_t*);

int main(int argc, char** argv) {
  const int64_t m = 48, n = 64, k = 256;
  std::vector<uint8_t> a(size_t(m * k));
  std::vector<int8_t> b(size_t(k * n));
  std::vector<int32_t> bias(size_t(n), 7), c(size_t(m * n));
  uint32_t x = 12345;
  for (uint8_t& v : a) v = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
  for (int8_t& v : b) v = int8_t((x = x * 1664525u + 1013904223u) >> 24);
  const std::string which = argc > 1 ? argv[1] : "i8:sve";
  I8Kernel i8 = nullptr;
  U8I8Kernel u8i8 = nullptr;
  if (which == "i8:sve") i8 = matmul_i8_i32_sve;
  if (which == "i8:neon_dotprod") i8 = matmul_i8_i32_neon_dotprod;
  if (which == "i8:neon") i8 = matmul_i8_i32_neon;
  if (which == "u8i8:sve_i8mm") u8i8 = matmul_u8i8_i32_sve_i8mm;
  if (which == "u8i8:sve") u8i8 = matmul_u8i8_i32_sve;
  if (which == "u8i8:neon_i8mm") u8i8 = matmul_u8i8_i32_neon_i8mm;
  if (which == "u8i8:neon_dotprod") u8i8 = matmul_u8i8_i32_neon_dotprod;
  if (which == "u8i8:neon") u8i8 = matmul_u8i8_i32_neon;
  if (!i8 && !u8i8) return 2;
  const auto* as = reinterpret_cast<const int8_t*>(a.data());
  icount_mark(0);
  if (i8) i8(as, b.data(), m, n, k, k, n, n, c.data());
  else u8i8(a.data(), b.data(), bias.data(), m, n, k, k, n, n, c.data());
  icount_mark(1);
  int64_t sum = 0;
  for (int32_t v : c) sum += v;
  std::printf("%lld\n", (long long)sum);
  return 0;
}
