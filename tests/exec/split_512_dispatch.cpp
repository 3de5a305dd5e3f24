// SPDX-License-Identifier: Apache-2.0
// exec.split_512.*: kernels whose 512-bit variant yields to the 256-bit one on CPUs that run
// 512-bit operations as two halves (AMD Zen 4; the plan's yieldsOnSplit512: static transposes
// that fit in L1). Built once with SIMDGEN_ASSUME_SPLIT_512=1 and once with 0: the dispatcher
// picks the 256-bit variant in the first build and the 512-bit one in the second where this CPU
// runs AVX-512, and the call it dispatches transposes (checked against a plain loop).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "simdgen_cpu_checks.h"  // generated from `simdgen list --json`
#include "transpose_16x16_f32.h"
#include "transpose_f64_37x70.h"

#define SIMDGEN_TEST_STR2(x) #x
#define SIMDGEN_TEST_STR(x) SIMDGEN_TEST_STR2(x)

namespace {

std::string expectedVariant() {
  namespace cpu = simdgen_test::cpu_checks;
  if (cpu::isa_avx512()) return SIMDGEN_ASSUME_SPLIT_512 ? "avx2" : "avx512";
  return cpu::isa_avx2() ? "avx2" : "scalar";
}

// The kernel's output rows are `ldo` apart (>= rows); padding between them stays as it was.
template <class T>
void checkTranspose(void (*kernel)(const T*, T*), int64_t rows, int64_t cols, int64_t ldo) {
  std::vector<T> in(size_t(rows * cols)), out(size_t(cols * ldo), T(-1)), want(out);
  for (size_t i = 0; i < in.size(); ++i) in[i] = T(i * 7 + 3);
  kernel(in.data(), out.data());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) want[size_t(c * ldo + r)] = in[size_t(r * cols + c)];
  CHECK(std::memcmp(out.data(), want.data(), out.size() * sizeof(T)) == 0);
}

}  // namespace

TEST_CASE("split_512: the dispatcher's choice with SIMDGEN_ASSUME_SPLIT_512=" SIMDGEN_TEST_STR(SIMDGEN_ASSUME_SPLIT_512)) {
  const std::string want = expectedVariant();
  CHECK(std::string(transpose_16x16_f32_variant()) == want);
  CHECK(std::string(transpose_f64_37x70_variant()) == want);
  checkTranspose<float>(transpose_16x16_f32, 16, 16, 16);
  checkTranspose<double>(transpose_f64_37x70, 37, 70, 40);  // a padded output stride (the spec)
}
