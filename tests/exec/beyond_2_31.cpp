// SPDX-License-Identifier: Apache-2.0
// exec.argmax_i8/beyond_2_31: argmax_i8 over n = 2^31 + 2^20 + 37 elements (2.1 GB) with the
// unique maximum past index 2^31 and a later duplicate (the first must win): 64-bit indices.
#include <doctest/doctest.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "argmax_i8.h"
#include "simdgen_cpu_checks.h"  // generated from `simdgen list --json`

namespace {

constexpr int64_t kN = (int64_t(1) << 31) + (int64_t(1) << 20) + 37;
constexpr int64_t kAt = (int64_t(1) << 31) + 12345;  // the first 127
constexpr int64_t kDup = kN - 100;                    // a later 127

// The input: values in [-100, 99], 126 just before index 2^31, 127 at kAt and kDup.
struct Input {
  int8_t* p = nullptr;
  Input() {
    void* m = mmap(nullptr, size_t(kN), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(m != MAP_FAILED);
    p = static_cast<int8_t*>(m);
    std::vector<int8_t> chunk(1 << 20);
    for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = int8_t(int(i * 37 % 200) - 100);
    for (int64_t i = 0; i < kN; i += int64_t(chunk.size()))
      std::memcpy(p + i, chunk.data(), size_t(std::min<int64_t>(kN - i, int64_t(chunk.size()))));
    p[1000] = 126;
    p[(int64_t(1) << 31) - 1] = 126;
    p[kAt] = 127;
    p[kDup] = 127;
  }
  ~Input() { munmap(p, size_t(kN)); }
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
};

}  // namespace

TEST_CASE("argmax_i8/beyond_2_31") {
  using Fn = decltype(&argmax_i8);
  struct Variant {
    const char* name;
    Fn fn;
  };
#define SIMDGEN_TEST_VARIANT(suffix) Variant{#suffix, &argmax_i8_##suffix},
  const Variant variants[] = {SIMDGEN_argmax_i8_VARIANTS(SIMDGEN_TEST_VARIANT) Variant{"dispatch", &argmax_i8}};
  const Input in;
  // Every variant runs, scalar included: each call takes well under a second (measured ~0.2 s).
  for (const Variant& v : variants) {
    const std::string head = "argmax_i8 [" + std::string(v.name) + "] n=" + std::to_string(kN);
    if (simdgen_test::variant_support(v.name) != simdgen_test::CpuSupport::yes) {
      MESSAGE(head << ": not supported by this CPU (not run)");
      continue;
    }
    int8_t value = 0;
    int64_t index = -2;
    const auto t0 = std::chrono::steady_clock::now();
    v.fn(in.p, kN, &value, &index);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE(head << ": " << s << " s");
    CHECK_MESSAGE(value == 127, head << ": value " << int(value) << ", expected 127");
    CHECK_MESSAGE(index == kAt, head << ": index " << index << ", expected " << kAt);
  }
}
