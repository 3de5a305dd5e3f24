// SPDX-License-Identifier: Apache-2.0
// One call of a matmul_i8_i32 variant (48 x 64 x 256, i8 x i8 -> i32) between two calls of a
// never-inlined marker, for counting its executed instructions under qemu
// (bench/arm_icount/matmul_i8_icount.sh). Prints the sum of the output so the call is kept.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "matmul_i8_i32.h"

__attribute__((noinline)) void icount_mark(int n) { asm volatile("" ::"r"(n)); }

int main(int argc, char** argv) {
  const int64_t m = 48, n = 64, k = 256;
  std::vector<int8_t> a(size_t(m * k)), b(size_t(k * n));
  std::vector<int32_t> c(size_t(m * n));
  uint32_t x = 12345;
  for (int8_t& v : a) v = int8_t((x = x * 1664525u + 1013904223u) >> 24);
  for (int8_t& v : b) v = int8_t((x = x * 1664525u + 1013904223u) >> 24);
  const char* which = argc > 1 ? argv[1] : "sve";
  icount_mark(0);
  if (!strcmp(which, "sve")) matmul_i8_i32_sve(a.data(), b.data(), m, n, k, k, n, n, c.data());
  else if (!strcmp(which, "neon_dotprod")) matmul_i8_i32_neon_dotprod(a.data(), b.data(), m, n, k, k, n, n, c.data());
  else if (!strcmp(which, "neon")) matmul_i8_i32_neon(a.data(), b.data(), m, n, k, k, n, n, c.data());
  else return 2;
  icount_mark(1);
  int64_t sum = 0;
  for (int32_t v : c) sum += v;
  std::printf("%lld\n", (long long)sum);
  return 0;
}
