// SPDX-License-Identifier: Apache-2.0
// simdgen_bench_gather (issue 8): how to read an f32 input with a stride of
// s elements, measured for y[i] = x[i * s] * 2, i < n, so that the map
// builder can choose between gathers and strided loads by measurement.
//
// Methods (names as in the results, "gather/<method>/s<s>/<n>"):
//   scalar       one element at a time, vectoriser off
//   autovec512   the plain loop under target("avx512f,...") at -O3: whatever
//                the compiler building this file picks (gcc 12: see docs)
//   gather512    _mm512_i32gather_ps per 16 elements; tail: one
//                _mm512_mask_i32gather_ps + masked store
//   gather512m   every iteration a masked gather (the shape of a loop
//                governed by whilelt masks throughout, as the generated
//                predicated loop is)
//   gather256    _mm256_i32gather_ps per 8; tail: _mm256_mask_i32gather_ps
//                + vmaskmovps store
//   insert512    16 scalar loads assembled into a zmm (vmovss/vinsertps/
//                vinsertf32x4 ...), as _mm512_setr_ps spells it; scalar tail
//   insert256    the same with 8 loads into a ymm (AVX2); scalar tail
//   simdgen.<v>  the generated kernel (bench/gather/specs: a runtime stride, whose
//                s = 1 runs its contiguous version, and
//                static strides 2, 3, 4 as .s2/.s3/.s4), variant <v> called by
//                name (avx512, avx2) or through its dispatcher (dispatch)
//   perm512      s = 2, 3, 4 only: whole contiguous zmm loads and
//                vpermt2ps (_mm512_permutex2var_ps) / vshuff32x4; tail: masked
//                loads of what is left, masked store
// x holds n * s elements (n rows of s, the layout a strided column comes
// from), so whole loads never leave the array; the tails read inside it.
// Each case is checked once (exact, and nothing past n written) before it
// is timed.
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "harness.h"
#include "strided_times_two.h"
#include "strided_times_two_s2.h"
#include "strided_times_two_s3.h"
#include "strided_times_two_s4.h"

namespace simdgen_bench {
namespace {

#define SIMDGEN_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#define SIMDGEN_AVX2 __attribute__((target("avx2,fma")))

using StridedFn = void (*)(const float* x, int64_t n, int64_t s, float* y);

#if defined(__clang__)
#define SIMDGEN_NOVEC _Pragma("clang loop vectorize(disable) interleave(disable)")
#define SIMDGEN_NOVEC_FN
#else
#define SIMDGEN_NOVEC
#define SIMDGEN_NOVEC_FN __attribute__((optimize("no-tree-vectorize")))
#endif

SIMDGEN_NOVEC_FN void scalar(const float* x, int64_t n, int64_t s, float* y) {
  SIMDGEN_NOVEC
  for (int64_t i = 0; i < n; ++i) y[i] = x[i * s] * 2.0f;
}

SIMDGEN_AVX512 void autovec512(const float* __restrict x, int64_t n, int64_t s,
                               float* __restrict y) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i * s] * 2.0f;
}

SIMDGEN_AVX512 inline __mmask16 below16(int64_t k) {
  return k >= 16 ? __mmask16(0xffff) : k <= 0 ? __mmask16(0) : __mmask16((1u << k) - 1);
}

SIMDGEN_AVX512 void gather512(const float* x, int64_t n, int64_t s, float* y) {
  const __m512i idx = _mm512_mullo_epi32(
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      _mm512_set1_epi32(static_cast<int>(s)));
  const __m512 two = _mm512_set1_ps(2.0f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_i32gather_ps(idx, x + i * s, 4), two));
  if (i < n) {
    const __mmask16 m = below16(n - i);
    const __m512 v = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, idx, x + i * s, 4);
    _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(v, two));
  }
}

SIMDGEN_AVX512 void gather512m(const float* x, int64_t n, int64_t s, float* y) {
  const __m512i idx = _mm512_mullo_epi32(
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      _mm512_set1_epi32(static_cast<int>(s)));
  const __m512 two = _mm512_set1_ps(2.0f);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = below16(n - i);
    const __m512 v = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, idx, x + i * s, 4);
    _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(v, two));
  }
}

SIMDGEN_AVX2 void gather256(const float* x, int64_t n, int64_t s, float* y) {
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i idx = _mm256_mullo_epi32(iota, _mm256_set1_epi32(static_cast<int>(s)));
  const __m256 two = _mm256_set1_ps(2.0f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_i32gather_ps(x + i * s, idx, 4), two));
  if (i < n) {
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), iota);
    const __m256 v = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), x + i * s, idx,
                                              _mm256_castsi256_ps(m), 4);
    _mm256_maskstore_ps(y + i, m, _mm256_mul_ps(v, two));
  }
}

SIMDGEN_AVX512 void insert512(const float* x, int64_t n, int64_t s, float* y) {
  const __m512 two = _mm512_set1_ps(2.0f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const float* p = x + i * s;
    const __m512 v = _mm512_setr_ps(p[0], p[s], p[2 * s], p[3 * s], p[4 * s], p[5 * s],
                                    p[6 * s], p[7 * s], p[8 * s], p[9 * s], p[10 * s],
                                    p[11 * s], p[12 * s], p[13 * s], p[14 * s], p[15 * s]);
    _mm512_storeu_ps(y + i, _mm512_mul_ps(v, two));
  }
  for (; i < n; ++i) y[i] = x[i * s] * 2.0f;
}

SIMDGEN_AVX2 void insert256(const float* x, int64_t n, int64_t s, float* y) {
  const __m256 two = _mm256_set1_ps(2.0f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const float* p = x + i * s;
    const __m256 v = _mm256_setr_ps(p[0], p[s], p[2 * s], p[3 * s], p[4 * s], p[5 * s],
                                    p[6 * s], p[7 * s]);
    _mm256_storeu_ps(y + i, _mm256_mul_ps(v, two));
  }
  for (; i < n; ++i) y[i] = x[i * s] * 2.0f;
}

// 16 outputs from 16 * S contiguous inputs held in S zmm registers.
template <int S>
SIMDGEN_AVX512 inline __m512 deinterleave(const __m512* v) {
  if constexpr (S == 2) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                           28, 30);
    return _mm512_permutex2var_ps(v[0], even, v[1]);
  } else if constexpr (S == 3) {
    // lanes 0..10 from (v0, v1) at 3j; lanes 11..15 from v2 at 3j - 32.
    const __m512i i1 = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0);
    const __m512i i2 =
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29);
    return _mm512_permutex2var_ps(_mm512_permutex2var_ps(v[0], i1, v[1]), i2, v[2]);
  } else {
    static_assert(S == 4);
    const __m512i i4 = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512 lo = _mm512_permutex2var_ps(v[0], i4, v[1]);  // outputs 0..7 in lanes 0..7
    const __m512 hi = _mm512_permutex2var_ps(v[2], i4, v[3]);  // outputs 8..15
    return _mm512_shuffle_f32x4(lo, hi, 0x44);  // 128-bit blocks lo0 lo1 hi0 hi1
  }
}

template <int S>
SIMDGEN_AVX512 void perm512(const float* x, int64_t n, int64_t s, float* y) {
  if (s != S) std::abort();
  const __m512 two = _mm512_set1_ps(2.0f);
  int64_t i = 0;
  __m512 v[S];
  for (; i + 16 <= n; i += 16) {
    const float* p = x + i * S;
    for (int k = 0; k < S; ++k) v[k] = _mm512_loadu_ps(p + 16 * k);
    _mm512_storeu_ps(y + i, _mm512_mul_ps(deinterleave<S>(v), two));
  }
  if (i < n) {
    // x has n * S elements: (n - i) * S of them are left from p.
    const float* p = x + i * S;
    const int64_t left = (n - i) * S;
    for (int k = 0; k < S; ++k) v[k] = _mm512_maskz_loadu_ps(below16(left - 16 * k), p + 16 * k);
    _mm512_mask_storeu_ps(y + i, below16(n - i), _mm512_mul_ps(deinterleave<S>(v), two));
  }
}

// The generated kernels with a static stride take no s: wrappers of the benchmark's signature.
#define SIMDGEN_STATIC_STRIDE(S, fn)                                                  \
  void fn##_of(const float* x, int64_t n, int64_t s, float* y) {                      \
    if (s != S) std::abort();                                                         \
    fn(x, n, y);                                                                      \
  }
SIMDGEN_STATIC_STRIDE(2, strided_times_two_s2)
SIMDGEN_STATIC_STRIDE(2, strided_times_two_s2_avx512)
SIMDGEN_STATIC_STRIDE(2, strided_times_two_s2_avx2)
SIMDGEN_STATIC_STRIDE(3, strided_times_two_s3)
SIMDGEN_STATIC_STRIDE(3, strided_times_two_s3_avx512)
SIMDGEN_STATIC_STRIDE(3, strided_times_two_s3_avx2)
SIMDGEN_STATIC_STRIDE(4, strided_times_two_s4)
SIMDGEN_STATIC_STRIDE(4, strided_times_two_s4_avx512)
SIMDGEN_STATIC_STRIDE(4, strided_times_two_s4_avx2)
#undef SIMDGEN_STATIC_STRIDE

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// x: n * s floats (cheap deterministic values), shared per (n, s).
const float* strided_input(int64_t n, int64_t s) {
  static std::map<std::pair<int64_t, int64_t>, std::unique_ptr<float, FreeDeleter>> cache;
  auto [it, fresh] = cache.try_emplace({n, s});
  if (fresh) {
    const size_t count = static_cast<size_t>(n * s);
    const size_t bytes = (count * sizeof(float) + 63) / 64 * 64 + 64;
    it->second.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
    float* p = it->second.get();
    for (size_t k = 0; k < count; ++k) p[k] = static_cast<float>(static_cast<int>(k % 1021) - 510);
  }
  return it->second.get();
}

constexpr int64_t kGuard = 16;

void add(const std::string& method, StridedFn fn, int64_t s, int64_t n) {
  const std::string name =
      "gather/" + method + "/s" + std::to_string(s) + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const float* x = strided_input(n, s);
    std::vector<float> y(n + kGuard, -7.0f);
    fn(x, n, s, y.data());
    for (int64_t i = 0; i < n + kGuard; ++i) {
      const float want = i < n ? x[i * s] * 2.0f : -7.0f;
      if (y[i] != want) {
        std::fprintf(stderr, "simdgen_bench_gather: WRONG RESULT from %s at %lld: %g, expected %g\n",
                     name.c_str(), static_cast<long long>(i), y[i], want);
        std::abort();
      }
    }
    for (auto _ : state) {
      fn(x, n, s, y.data());
      benchmark::ClobberMemory();
    }
    state.counters["n"] = static_cast<double>(n);
    state.counters["s"] = static_cast<double>(s);
    state.counters["elements_per_ns"] = benchmark::Counter(
        static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  });
}

void register_gather_benchmarks() {
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  for (int64_t s : {1, 2, 3, 4, 8, 16, 64, 1025}) {
    std::vector<int64_t> sizes = {16, 31, 64, 100, 256, 1000, 4096};
    // 10^6 rows of s floats; for s = 1025 that would be 4 GB: 65536 instead.
    sizes.push_back(s <= 64 ? 1000000 : 65536);
    for (int64_t n : sizes) {
      add("scalar", scalar, s, n);
      add("simdgen.dispatch", strided_times_two, s, n);
      if (s == 2) add("simdgen.s2.dispatch", strided_times_two_s2_of, s, n);
      if (s == 3) add("simdgen.s3.dispatch", strided_times_two_s3_of, s, n);
      if (s == 4) add("simdgen.s4.dispatch", strided_times_two_s4_of, s, n);
      if (avx512) {
        add("simdgen.avx512", strided_times_two_avx512, s, n);
        if (s == 2) add("simdgen.s2.avx512", strided_times_two_s2_avx512_of, s, n);
        if (s == 3) add("simdgen.s3.avx512", strided_times_two_s3_avx512_of, s, n);
        if (s == 4) add("simdgen.s4.avx512", strided_times_two_s4_avx512_of, s, n);
        add("autovec512", autovec512, s, n);
        add("gather512", gather512, s, n);
        add("gather512m", gather512m, s, n);
        add("insert512", insert512, s, n);
        if (s == 2) add("perm512", perm512<2>, s, n);
        if (s == 3) add("perm512", perm512<3>, s, n);
        if (s == 4) add("perm512", perm512<4>, s, n);
      }
      if (avx2) {
        add("simdgen.avx2", strided_times_two_avx2, s, n);
        if (s == 2) add("simdgen.s2.avx2", strided_times_two_s2_avx2_of, s, n);
        if (s == 3) add("simdgen.s3.avx2", strided_times_two_s3_avx2_of, s, n);
        if (s == 4) add("simdgen.s4.avx2", strided_times_two_s4_avx2_of, s, n);
        add("gather256", gather256, s, n);
        add("insert256", insert256, s, n);
      }
    }
  }
}

}  // namespace
}  // namespace simdgen_bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  simdgen_bench::register_clock();
  simdgen_bench::register_gather_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
