// SPDX-License-Identifier: Apache-2.0
// Execution test of the proof plans lowered by each module (emit_proof_kernels.cpp writes them):
// every variant this CPU supports against plain scalar loops, n = 0..300, with the input ending
// at a PROT_NONE page so that a lane read past the end faults; the transpose networks of every
// element type against a scalar transpose.
#include <doctest/doctest.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__aarch64__)
#include <sys/prctl.h>  // PR_SVE_GET_VL
#endif

#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "simdgen_cpu_checks.h"  // generated from `simdgen list --json`
#include "bf16_reference.h"
#include "proof_plans.h"

#if defined(__x86_64__)
#define SIMDGEN_PROOF_VARIANTS(X) X(avx512, "avx512") X(avx2, "avx2_fma") X(scalar, "scalar")
#elif defined(__aarch64__)
#define SIMDGEN_PROOF_VARIANTS(X) X(sve, "sve") X(neon, "neon") X(scalar, "scalar")
#else
#define SIMDGEN_PROOF_VARIANTS(X) X(scalar, "scalar")
#endif

#define DECLARE(s, support)                                                                                     \
  void times_two_##s(const float* a, int64_t n, float* b);                                                     \
  void gemm_##s(const float* a, const float* b, const float* bias, int64_t m, int64_t n, int64_t kk, float* c); \
  void threshold_i32_##s(const int32_t* a, int64_t n, int32_t* b, int32_t* total);                            \
  void threshold_u8_##s(const uint8_t* a, int64_t n, uint8_t* b, uint8_t* total);                             \
  void threshold_i16_##s(const int16_t* a, int64_t n, int16_t* b, int16_t* total);                            \
  void threshold_u64_##s(const uint64_t* a, int64_t n, uint64_t* b, uint64_t* total);                         \
  void threshold_f64_##s(const double* a, int64_t n, double* b, double* total);                               \
  void threshold_f32_##s(const float* a, int64_t n, float* b, float* total);                                    \
  void lane_sum_f32_halves_##s(const float* a, int64_t n, float* total);                                        \
  void lane_sum_f64_halves_##s(const double* a, int64_t n, double* total);
SIMDGEN_PROOF_VARIANTS(DECLARE)
#undef DECLARE
// Every element type: its name in kernel names and its C type.
#define SIMDGEN_PROOF_DTYPES(X) \
  X(i8, int8_t) X(u8, uint8_t) X(i16, int16_t) X(u16, uint16_t) X(i32, int32_t) X(u32, uint32_t) X(i64, int64_t) \
  X(u64, uint64_t) X(f32, float) X(f64, double)
#if defined(__x86_64__)
void dot_bf16_avx512_bf16(const float* acc, const uint32_t* b, const uint32_t* c, int64_t n, float* out);
void transpose16_f32_avx512(const float* in, float* out);
void transpose16_i32_avx512(const int32_t* in, int32_t* out);
void transpose16h_f32_avx512(const float* in, float* out);
void transpose16h_i32_avx512(const int32_t* in, int32_t* out);
void transpose8_f32_avx2(const float* in, float* out);
void transpose8_u32_avx2(const uint32_t* in, uint32_t* out);
#define DECLARE(d, T)                                          \
  void transpose_x86_128_##d##_avx512(const T* in, T* out); \
  void transpose_x86_256_##d##_avx512(const T* in, T* out); \
  void transpose_x86_512_##d##_avx512(const T* in, T* out); \
  void transpose_x86h_256_##d##_avx512(const T* in, T* out); \
  void transpose_x86h_512_##d##_avx512(const T* in, T* out); \
  void transpose_x86_128_##d##_avx2(const T* in, T* out);   \
  void transpose_x86_256_##d##_avx2(const T* in, T* out);   \
  void transpose_x86h_256_##d##_avx2(const T* in, T* out);
SIMDGEN_PROOF_DTYPES(DECLARE)
#undef DECLARE
#elif defined(__aarch64__)
#define DECLARE(d, T)                                         \
  void transpose_zip_##d##_neon(const T* in, T* out);      \
  void transpose_trn_##d##_neon(const T* in, T* out);      \
  void transpose_zip_##d##_vs1_sve(const T* in, T* out);   \
  void transpose_zip_##d##_vs2_sve(const T* in, T* out);   \
  void transpose_zip_##d##_vs4_sve(const T* in, T* out);   \
  void transpose_zip_##d##_vs8_sve(const T* in, T* out);   \
  void transpose_zip_##d##_vs16_sve(const T* in, T* out);  \
  void transpose_trn_##d##_sve(const T* in, T* out);
SIMDGEN_PROOF_DTYPES(DECLARE)
#undef DECLARE
void lane_sum_f32_pairwise_neon(const float* a, int64_t n, float* total);
void lane_sum_f64_pairwise_neon(const double* a, int64_t n, double* total);
void lane_sum_f32_pairwise_sve(const float* a, int64_t n, float* total);
void dot_bf16_neon_bf16(const float* acc, const uint32_t* b, const uint32_t* c, int64_t n, float* out);
void dot_bf16_sve_bf16(const float* acc, const uint32_t* b, const uint32_t* c, int64_t n, float* out);
void lane_sum_f64_pairwise_sve(const double* a, int64_t n, double* total);
#endif

namespace {

bool supported(const char* suffix) {
  return simdgen_test::variant_support(suffix) == simdgen_test::CpuSupport::yes;
}

// n elements whose end touches a PROT_NONE page.
template <class T>
struct Guarded {
  size_t bytes = 0;
  char* map = nullptr;
  T* data = nullptr;
  explicit Guarded(size_t n) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t body = (n * sizeof(T) + page - 1) / page * page;
    bytes = body + page;
    map = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    REQUIRE(map != MAP_FAILED);
    REQUIRE(mprotect(map + body, page, PROT_NONE) == 0);
    data = reinterpret_cast<T*>(map + body) - n;
  }
  ~Guarded() { munmap(map, bytes); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
};

template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (a != a && b != b) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T, class Fn>
void checkThreshold(const char* variant, Fn fn, T limit) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-60, 260);
  for (int64_t n = 0; n <= 300; ++n) {
    CAPTURE(variant);
    CAPTURE(n);
    Guarded<T> a(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) a.data[i] = static_cast<T>(dist(rng));
    std::vector<T> b(size_t(n), T(1)), want(static_cast<size_t>(n));
    T total = T(3);
    uint64_t wrapped = 0;
    double exact = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T x = a.data[i];
      want[size_t(i)] = x > limit ? x : limit;
      if (!(x > limit)) {
        if constexpr (std::is_floating_point_v<T>) exact += double(x);
        else wrapped += uint64_t(x);
      }
    }
    fn(a.data, n, b.data(), &total);
    bool eq = true;
    for (size_t i = 0; i < size_t(n); ++i) eq = eq && same(b[i], want[i]);
    CHECK(eq);
    if constexpr (std::is_floating_point_v<T>) CHECK(total == T(exact));  // small integers: exact in any order
    else CHECK(total == static_cast<T>(wrapped));
  }
}

// The sum of a[0..n) in one vector of `lanes` lanes (inactive ones +0.0), folded as the plan
// defines: rop(lower half, upper half), or with `pairwise` adjacent lanes first.
template <class T>
T laneFold(const T* a, int64_t n, int lanes, bool pairwise) {
  std::vector<T> v(size_t(lanes), T(0));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = a[i];
  while (v.size() > 1) {
    const size_t h = v.size() / 2;
    for (size_t l = 0; l < h; ++l) v[l] = pairwise ? v[2 * l] + v[2 * l + 1] : v[l] + v[l + h];
    v.resize(h);
  }
  return v[0];
}

// Bit-for-bit against laneFold in the kernel's order, on data whose sum depends on the order
// (magnitudes within a few binades, both signs): from 4 lanes on, a lowering that folds in the
// other order fails (2 lanes have one order).
template <class T, class Fn>
void checkLaneSum(const std::string& name, Fn fn, int lanes, bool pairwise) {
  CAPTURE(name);
  CAPTURE(lanes);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-4, 4);
  int telling = 0;  // inputs on which the two orders differ
  for (int trial = 0; trial < 40; ++trial)
    for (int64_t n = 0; n <= lanes; ++n) {
      CAPTURE(n);
      Guarded<T> a(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) a.data[i] = static_cast<T>(std::ldexp(mantissa(rng), exponent(rng)));
      T total = T(7);
      fn(a.data, n, &total);
      const T want = laneFold(a.data, n, lanes, pairwise);
      CHECK(same(total, want));
      if (!same(want, laneFold(a.data, n, lanes, !pairwise))) ++telling;
    }
  if (lanes >= 4) CHECK(telling >= 5);
}

}  // namespace

TEST_CASE("horizontal float sums lowered in the plan's order, bit for bit: halves everywhere, pairwise on Arm") {
#if defined(__x86_64__)
  if (supported("avx512")) {
    checkLaneSum<float>("lane_sum_f32_halves_avx512", lane_sum_f32_halves_avx512, 16, false);
    checkLaneSum<double>("lane_sum_f64_halves_avx512", lane_sum_f64_halves_avx512, 8, false);
  }
  if (supported("avx2_fma")) {
    checkLaneSum<float>("lane_sum_f32_halves_avx2", lane_sum_f32_halves_avx2, 8, false);
    checkLaneSum<double>("lane_sum_f64_halves_avx2", lane_sum_f64_halves_avx2, 4, false);
  }
#elif defined(__aarch64__)
  if (supported("neon")) {
    checkLaneSum<float>("lane_sum_f32_halves_neon", lane_sum_f32_halves_neon, 4, false);
    checkLaneSum<double>("lane_sum_f64_halves_neon", lane_sum_f64_halves_neon, 2, false);
    checkLaneSum<float>("lane_sum_f32_pairwise_neon", lane_sum_f32_pairwise_neon, 4, true);
    checkLaneSum<double>("lane_sum_f64_pairwise_neon", lane_sum_f64_pairwise_neon, 2, true);
  }
  const int vl = prctl(PR_SVE_GET_VL);
  if (supported("sve") && vl > 0) {
    const int bytes = vl & PR_SVE_VL_LEN_MASK;
    checkLaneSum<float>("lane_sum_f32_halves_sve", lane_sum_f32_halves_sve, bytes / 4, false);
    checkLaneSum<double>("lane_sum_f64_halves_sve", lane_sum_f64_halves_sve, bytes / 8, false);
    checkLaneSum<float>("lane_sum_f32_pairwise_sve", lane_sum_f32_pairwise_sve, bytes / 4, true);
    checkLaneSum<double>("lane_sum_f64_pairwise_sve", lane_sum_f64_pairwise_sve, bytes / 8, true);
  }
#endif
}

TEST_CASE("seed 001 times_two lowered: every variant, n = 0..300, guard page after the input") {
#define CHECK_VARIANT(s, support)                                                                 \
  if (supported(support))                                                                         \
    for (int64_t n = 0; n <= 300; ++n) {                                                          \
      CAPTURE(#s);                                                                                \
      CAPTURE(n);                                                                                 \
      Guarded<float> a(static_cast<size_t>(n));                                                                \
      for (int64_t i = 0; i < n; ++i) a.data[i] = float(i) * 0.75f - 3.0f;                       \
      if (n > 5) a.data[5] = NAN;                                                                 \
      std::vector<float> b(size_t(n) + 1, -9.0f);                                                 \
      times_two_##s(a.data, n, b.data());                                                         \
      bool eq = b[size_t(n)] == -9.0f;                                                            \
      for (int64_t i = 0; i < n; ++i) eq = eq && same(b[size_t(i)], a.data[i] * 2.0f);            \
      CHECK(eq);                                                                                  \
    }
  SIMDGEN_PROOF_VARIANTS(CHECK_VARIANT)
#undef CHECK_VARIANT
}

TEST_CASE("GEMM micro-kernel lowered: fma, broadcast loads, predicated bias/B/C, ReLU over awkward sizes") {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
#define CHECK_VARIANT(s, support)                                                                          \
  if (supported(support))                                                                                  \
    for (int64_t m : {1, 4, 5, 6, 11, 23})                                                                 \
      for (int64_t n : {1, 7, 15, 16, 17, 63, 64, 65, 130})                                                \
        for (int64_t kk : {1, 3, 17}) {                                                                    \
          CAPTURE(#s);                                                                                     \
          CAPTURE(m);                                                                                      \
          CAPTURE(n);                                                                                      \
          CAPTURE(kk);                                                                                     \
          std::vector<float> a(static_cast<size_t>(m * kk)), b(static_cast<size_t>(kk * n)), bias(static_cast<size_t>(n)), c(size_t(m * n), 5.0f); \
          for (auto* v : {&a, &b, &bias})                                                                  \
            for (auto& x : *v) x = dist(rng);                                                              \
          gemm_##s(a.data(), b.data(), bias.data(), m, n, kk, c.data());                                   \
          CHECK(c == proof_plans::gemmReference(a, b, bias, m, n, kk));                                   \
        }
  SIMDGEN_PROOF_VARIANTS(CHECK_VARIANT)
#undef CHECK_VARIANT
}

TEST_CASE("threshold lowered: whilelt, compare, not/and, select, predicated loads, stores and sums") {
#define CHECK_VARIANT(s, support)                                   \
  if (supported(support)) {                                         \
    checkThreshold<int32_t>(#s, threshold_i32_##s, 10);             \
    checkThreshold<uint8_t>(#s, threshold_u8_##s, uint8_t(200));    \
    checkThreshold<int16_t>(#s, threshold_i16_##s, int16_t(-5));    \
    checkThreshold<uint64_t>(#s, threshold_u64_##s, uint64_t(7));   \
    checkThreshold<double>(#s, threshold_f64_##s, 10.0);            \
    checkThreshold<float>(#s, threshold_f32_##s, 10.0f);            \
  }
  SIMDGEN_PROOF_VARIANTS(CHECK_VARIANT)
#undef CHECK_VARIANT
}

namespace {

// An n x n tile through fn, three times: tagged with each element's row, with its column, and
// with row * n + col. 8-bit tiles of more than 256 elements cannot hold distinct values; the row
// and column passes together still name each element's source (n <= 256 fits any type).
template <class T, class Fn>
void checkTranspose(const std::string& kernel, Fn fn, int n) {
  CAPTURE(kernel);
  CAPTURE(n);
  for (int pass = 0; pass < 3; ++pass) {
    CAPTURE(pass);
    auto value = [&](int r, int c) { return static_cast<T>(pass == 0 ? r : pass == 1 ? c : r * n + c); };
    std::vector<T> in(static_cast<size_t>(n * n)), out(static_cast<size_t>(n * n), static_cast<T>(-1));
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) in[size_t(r * n + c)] = value(r, c);
    fn(in.data(), out.data());
    bool eq = true;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) eq = eq && same(out[size_t(c * n + r)], value(r, c));
    CHECK(eq);
  }
}

}  // namespace

#if defined(__x86_64__)
TEST_CASE("seed-004 16x16 (avx512, also from half rows) and 8x8 (avx2) transpose networks lowered") {
  if (supported("avx512")) {
    checkTranspose<float>("transpose16_f32_avx512", transpose16_f32_avx512, 16);
    checkTranspose<int32_t>("transpose16_i32_avx512", transpose16_i32_avx512, 16);
    checkTranspose<float>("transpose16h_f32_avx512", transpose16h_f32_avx512, 16);
    checkTranspose<int32_t>("transpose16h_i32_avx512", transpose16h_i32_avx512, 16);
  }
  if (supported("avx2_fma")) {
    checkTranspose<float>("transpose8_f32_avx2", transpose8_f32_avx2, 8);
    checkTranspose<uint32_t>("transpose8_u32_avx2", transpose8_u32_avx2, 8);
  }
}

TEST_CASE("generic x86 transpose networks lowered: every element type at 128, 256 and 512 bits, whole and half rows") {
#define CHECK_DTYPE(d, T)                                                                          \
  if (supported("avx512")) {                                                                       \
    checkTranspose<T>("transpose_x86_128_" #d "_avx512", transpose_x86_128_##d##_avx512, 16 / int(sizeof(T))); \
    checkTranspose<T>("transpose_x86_256_" #d "_avx512", transpose_x86_256_##d##_avx512, 32 / int(sizeof(T))); \
    checkTranspose<T>("transpose_x86_512_" #d "_avx512", transpose_x86_512_##d##_avx512, 64 / int(sizeof(T))); \
    checkTranspose<T>("transpose_x86h_256_" #d "_avx512", transpose_x86h_256_##d##_avx512, 32 / int(sizeof(T))); \
    checkTranspose<T>("transpose_x86h_512_" #d "_avx512", transpose_x86h_512_##d##_avx512, 64 / int(sizeof(T))); \
  }                                                                                                \
  if (supported("avx2_fma")) {                                                                     \
    checkTranspose<T>("transpose_x86_128_" #d "_avx2", transpose_x86_128_##d##_avx2, 16 / int(sizeof(T)));     \
    checkTranspose<T>("transpose_x86_256_" #d "_avx2", transpose_x86_256_##d##_avx2, 32 / int(sizeof(T)));     \
    checkTranspose<T>("transpose_x86h_256_" #d "_avx2", transpose_x86h_256_##d##_avx2, 32 / int(sizeof(T)));   \
  }
  SIMDGEN_PROOF_DTYPES(CHECK_DTYPE)
#undef CHECK_DTYPE
}
#elif defined(__aarch64__)
TEST_CASE("Arm zip and trn transpose networks lowered: NEON, and SVE at this CPU's vector length") {
  // Each SVE zip kernel is built for one vscale: only the one for this length runs (trn: vscale 1).
  const int vl = prctl(PR_SVE_GET_VL);
  const int vscale = supported("sve") && vl > 0 ? (vl & PR_SVE_VL_LEN_MASK) / 16 : 0;
  CAPTURE(vscale);
#define CHECK_DTYPE(d, T)                                                                                   \
  if (supported("neon")) {                                                                                  \
    checkTranspose<T>("transpose_zip_" #d "_neon", transpose_zip_##d##_neon, 16 / int(sizeof(T)));          \
    checkTranspose<T>("transpose_trn_" #d "_neon", transpose_trn_##d##_neon, 16 / int(sizeof(T)));          \
  }                                                                                                         \
  if (vscale > 0) {                                                                                         \
    void (*const zip[])(const T*, T*) = {transpose_zip_##d##_vs1_sve, transpose_zip_##d##_vs2_sve,          \
                                         transpose_zip_##d##_vs4_sve, transpose_zip_##d##_vs8_sve,          \
                                         transpose_zip_##d##_vs16_sve};                                     \
    const int k = vscale == 1 ? 0 : vscale == 2 ? 1 : vscale == 4 ? 2 : vscale == 8 ? 3 : vscale == 16 ? 4 : -1; \
    REQUIRE(k >= 0);                                                                                        \
    checkTranspose<T>("transpose_zip_" #d "_sve", zip[k], 16 * vscale / int(sizeof(T)));                   \
    if (vscale == 1) checkTranspose<T>("transpose_trn_" #d "_sve", transpose_trn_##d##_sve, 16 / int(sizeof(T))); \
  }
  SIMDGEN_PROOF_DTYPES(CHECK_DTYPE)
#undef CHECK_DTYPE
}
#endif

namespace {

// ---- bf16 pair dot products, against the instructions' documented arithmetic --------------------

using namespace bf16_reference;

using DotBf16Fn = void (*)(const float*, const uint32_t*, const uint32_t*, int64_t, float*);
// The lowered op against the reference on testLanes(), bit for bit (NaN for NaN).
void checkDotBf16(const char* name, DotBf16Fn f, bool odd) {
  CAPTURE(name);
  const Lanes lanes = testLanes();
  const std::vector<float>& acc = lanes.acc;
  const std::vector<uint32_t>&b = lanes.b, &c = lanes.c;
  const int64_t n = int64_t(acc.size());
  std::vector<float> out(acc.size(), -7.0f);
  f(acc.data(), b.data(), c.data(), n, out.data());
  int differ = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float want = odd ? bfdotLane(acc[size_t(i)], b[size_t(i)], c[size_t(i)]) : vdpbf16psLane(acc[size_t(i)], b[size_t(i)], c[size_t(i)]);
    const float other = odd ? vdpbf16psLane(acc[size_t(i)], b[size_t(i)], c[size_t(i)]) : bfdotLane(acc[size_t(i)], b[size_t(i)], c[size_t(i)]);
    const bool ok = std::isnan(want) ? std::isnan(out[size_t(i)]) : floatBits(out[size_t(i)]) == floatBits(want);
    CHECK_MESSAGE(ok, "lane " << i << ": got " << out[size_t(i)] << ", want " << want);
    if (floatBits(want) != floatBits(other)) ++differ;
  }
  CHECK(differ >= 4);  // the data tells the two roundings apart
}

}  // namespace

TEST_CASE("bf16 pair dot products bit for bit: vdpbf16ps rounds to nearest, bfdot to odd") {
#if defined(__x86_64__)
  if (supported("avx512_bf16")) checkDotBf16("dot_bf16_avx512_bf16", dot_bf16_avx512_bf16, false);
#elif defined(__aarch64__)
  if (supported("neon_bf16")) checkDotBf16("dot_bf16_neon_bf16", dot_bf16_neon_bf16, true);
  if (supported("sve_bf16")) checkDotBf16("dot_bf16_sve_bf16", dot_bf16_sve_bf16, true);
#endif
}
