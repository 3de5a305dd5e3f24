// SPDX-License-Identifier: Apache-2.0
// One generated kernel (specs/rowsum_i8.json, emitted by the sanitized simdgen) under ASan/UBSan: every
// variant this CPU runs, on inputs allocated to their exact size, so that a tail reading past the
// last row is reported. Results are compared with a plain loop (integer add wraps in int32).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "rowsum_i8.h"

using Kernel = void (*)(const int8_t*, int64_t, int64_t, int64_t, int32_t*);

static int check(const char* name, Kernel k) {
  int bad = 0;
  for (int64_t rows : {0, 1, 3, 17})
    for (int64_t cols : {0, 1, 15, 16, 31, 63, 64, 65, 127, 200, 1000})
      for (int64_t pad : {0, 5}) {
        const int64_t stride = cols + pad;
        std::vector<int8_t> in(rows ? size_t((rows - 1) * stride + cols) : 0);
        for (size_t i = 0; i < in.size(); ++i) in[i] = int8_t(i * 37 + 11);
        std::vector<int32_t> out(static_cast<size_t>(rows));
        k(in.data(), rows, cols, stride, out.data());
        for (int64_t r = 0; r < rows; ++r) {
          uint32_t want = 0;
          for (int64_t c = 0; c < cols; ++c) want += uint32_t(int32_t(in[size_t(r * stride + c)]));
          if (out[size_t(r)] != int32_t(want)) ++bad;
        }
      }
  std::printf("%s: %s\n", name, bad ? "MISMATCH" : "ok");
  return bad;
}

int main() {
  int bad = check("scalar", rowsum_i8_scalar);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) bad += check("avx2", rowsum_i8_avx2);
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  if (avx512) bad += check("avx512", rowsum_i8_avx512);
  if (avx512 && __builtin_cpu_supports("avx512vnni")) bad += check("avx512_vnni", rowsum_i8_avx512_vnni);
#endif
  bad += check(rowsum_i8_variant(), rowsum_i8);
  return bad ? 1 : 0;
}
