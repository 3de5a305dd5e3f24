// SPDX-License-Identifier: Apache-2.0
// argmax benchmarks: the generated argmax_i32 / argmax_f32 (dispatcher and
// each variant) against plain loops (clang++-19, g++-12), std::max_element,
// Eigen's maxCoeff(&index), and a vectorised sum over the same array as the
// bandwidth reference. Names: "argmax_<T>/<impl>/<random|increasing>/<n>".
//
// main.cpp is not involved: the cases register themselves from a static
// initialiser (as BENCHMARK() does), so they run in the same binary and are
// selected by --benchmark_filter like the rest. Each case is checked once
// against a scalar reference before it is first timed; a mismatch aborts.
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "argmax_f32.h"
#include "argmax_i32.h"
#include "harness.h"
#include "peers_arg_eigen.h"
#include "peers_arg_plain.h"

namespace simdgen_bench {
namespace {

// 4 KB (L1), 256 KiB (L2) and ~4 MB (L3 on Zen 4) of int32/f32. 1000 and
// 1000003 are not multiples of any vector or block width: tails are timed.
constexpr int64_t kSizes[] = {1000, 65536, 1000003};

enum class Data { kRandom, kIncreasing };
const char* data_name(Data d) { return d == Data::kRandom ? "random" : "increasing"; }

template <class T>
using ArgFn = void (*)(const T* input, int64_t n, T* value, int64_t* index);
template <class T>
using SumFn = T (*)(const T* input, int64_t n);

template <class T>
struct Result {
  T value;
  int64_t index;
};

// ---- data --------------------------------------------------------------

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
struct Array {
  int64_t n = 0;
  std::unique_ptr<T, FreeDeleter> storage;
  Result<T> ref{};
  const T* data() const { return storage.get(); }
};

// The simple reference: the loop from the brief, in this (portable) file.
template <class T>
Result<T> reference_argmax(const T* a, int64_t n) {
  T best = a[0];
  int64_t idx = 0;
  for (int64_t i = 1; i < n; ++i)
    if (a[i] > best) {
      best = a[i];
      idx = i;
    }
  return {best, idx};
}

// One array per (type, data, n), built on first use and shared by every
// implementation, so all rows of one group read exactly the same bytes.
//   random:     fixed seed; int32 over the full range, float in [-1, 1)
//               (no NaN/Inf: the peers make no promises about NaN).
//   increasing: a[i] = i - n/2, every element a new maximum (the worst case
//               for block-rescan schemes and for branchy loops' stores).
//               Exact in float: |i - n/2| < 2^24.
template <class T>
const Array<T>& array(Data d, int64_t n) {
  static std::map<std::pair<int, int64_t>, Array<T>> cache;
  auto [it, fresh] = cache.try_emplace({static_cast<int>(d), n});
  Array<T>& a = it->second;
  if (!fresh) return a;
  a.n = n;
  // 64-byte aligned, rounded up to whole cache lines, zero slack after n.
  const size_t bytes = (static_cast<size_t>(n) * sizeof(T) + 63) / 64 * 64 + 64;
  a.storage.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
  std::memset(a.storage.get(), 0, bytes);
  T* p = a.storage.get();
  if (d == Data::kRandom) {
    std::mt19937_64 rng(0xa59a0000u + static_cast<uint64_t>(n));
    if constexpr (std::is_integral_v<T>) {
      std::uniform_int_distribution<T> dist(std::numeric_limits<T>::min(),
                                            std::numeric_limits<T>::max());
      for (int64_t i = 0; i < n; ++i) p[i] = dist(rng);
    } else {
      std::uniform_real_distribution<T> dist(T(-1), T(1));
      for (int64_t i = 0; i < n; ++i) p[i] = dist(rng);
    }
  } else {
    static_assert(sizeof(T) == 4);
    if (n >= (int64_t{1} << 24)) std::abort();  // not exact in float any more
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(i - n / 2);
  }
  a.ref = reference_argmax(p, n);
  return a;
}

// ---- bandwidth reference: a vectorised sum over the same array ----------
// Eight independent accumulators so the loop is bound by loads (Zen 4: one
// 64-byte load per cycle from L1), not by add latency; a masked load for the
// tail. Function-level target: the binary still runs on any x86-64.

__attribute__((target("avx512f"))) int32_t sum_i32_avx512(const int32_t* a, int64_t n) {
  __m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0;
  __m512i s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    s0 = _mm512_add_epi32(s0, _mm512_loadu_si512(a + i));
    s1 = _mm512_add_epi32(s1, _mm512_loadu_si512(a + i + 16));
    s2 = _mm512_add_epi32(s2, _mm512_loadu_si512(a + i + 32));
    s3 = _mm512_add_epi32(s3, _mm512_loadu_si512(a + i + 48));
    s4 = _mm512_add_epi32(s4, _mm512_loadu_si512(a + i + 64));
    s5 = _mm512_add_epi32(s5, _mm512_loadu_si512(a + i + 80));
    s6 = _mm512_add_epi32(s6, _mm512_loadu_si512(a + i + 96));
    s7 = _mm512_add_epi32(s7, _mm512_loadu_si512(a + i + 112));
  }
  for (; i + 16 <= n; i += 16) s0 = _mm512_add_epi32(s0, _mm512_loadu_si512(a + i));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    s0 = _mm512_add_epi32(s0, _mm512_maskz_loadu_epi32(m, a + i));
  }
  s0 = _mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3));
  s4 = _mm512_add_epi32(_mm512_add_epi32(s4, s5), _mm512_add_epi32(s6, s7));
  // Stored and summed by hand (as in read_bandwidth.cpp): GCC 12's
  // _mm512_reduce_add_* trip -Wuninitialized inside its own header.
  alignas(64) uint32_t lanes[16];
  _mm512_store_si512(lanes, _mm512_add_epi32(s0, s4));
  uint32_t sum = 0;
  for (uint32_t lane : lanes) sum += lane;
  return static_cast<int32_t>(sum);  // modulo 2^32: only the loads matter
}

__attribute__((target("avx512f"))) float sum_f32_avx512(const float* a, int64_t n) {
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  __m512 s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    s0 = _mm512_add_ps(s0, _mm512_loadu_ps(a + i));
    s1 = _mm512_add_ps(s1, _mm512_loadu_ps(a + i + 16));
    s2 = _mm512_add_ps(s2, _mm512_loadu_ps(a + i + 32));
    s3 = _mm512_add_ps(s3, _mm512_loadu_ps(a + i + 48));
    s4 = _mm512_add_ps(s4, _mm512_loadu_ps(a + i + 64));
    s5 = _mm512_add_ps(s5, _mm512_loadu_ps(a + i + 80));
    s6 = _mm512_add_ps(s6, _mm512_loadu_ps(a + i + 96));
    s7 = _mm512_add_ps(s7, _mm512_loadu_ps(a + i + 112));
  }
  for (; i + 16 <= n; i += 16) s0 = _mm512_add_ps(s0, _mm512_loadu_ps(a + i));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    s0 = _mm512_add_ps(s0, _mm512_maskz_loadu_ps(m, a + i));
  }
  s0 = _mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3));
  s4 = _mm512_add_ps(_mm512_add_ps(s4, s5), _mm512_add_ps(s6, s7));
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, _mm512_add_ps(s0, s4));
  float sum = 0.0f;
  for (float lane : lanes) sum += lane;
  return sum;
}

// Scalar model of exactly the summation order above (per lane: eight
// accumulators, then the 16-wide steps and the tail into the first, then the
// same tree and lane order), so that the float result must match bit for
// bit: a tolerance loose enough for reassociation could not tell a dropped
// element of a 10^6-element sum. Integer sums wrap modulo 2^32.
template <class T>
T reference_sum(const T* a, int64_t n) {
  using Acc = std::conditional_t<std::is_integral_v<T>, uint32_t, T>;
  Acc s[8][16] = {};
  int64_t i = 0;
  for (; i + 128 <= n; i += 128)
    for (int k = 0; k < 8; ++k)
      for (int l = 0; l < 16; ++l) s[k][l] += static_cast<Acc>(a[i + 16 * k + l]);
  for (; i + 16 <= n; i += 16)
    for (int l = 0; l < 16; ++l) s[0][l] += static_cast<Acc>(a[i + l]);
  if (i < n)  // the masked load: zeros in the lanes past the end
    for (int l = 0; l < 16; ++l) s[0][l] += i + l < n ? static_cast<Acc>(a[i + l]) : Acc(0);
  Acc sum = 0;
  for (int l = 0; l < 16; ++l) {
    const Acc lo = (s[0][l] + s[1][l]) + (s[2][l] + s[3][l]);
    const Acc hi = (s[4][l] + s[5][l]) + (s[6][l] + s[7][l]);
    sum += lo + hi;
  }
  return static_cast<T>(sum);
}

// ---- check, time, register ---------------------------------------------

// Rates divide by CPU time; per cycle uses the OS's (nominal) frequency, as
// set_bandwidth_counters does: the table states the measured clock too.
template <class T>
void set_counters(benchmark::State& state, int64_t n) {
  using benchmark::Counter;
  const double elems = static_cast<double>(n);
  state.counters["elements_per_ns"] = Counter(elems * 1e-9, Counter::kIsIterationInvariantRate);
  state.counters["elements_per_cycle"] = Counter(
      elems / benchmark::CPUInfo::Get().cycles_per_second, Counter::kIsIterationInvariantRate);
  set_bandwidth_counters(state, elems * sizeof(T));
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr,
               "simdgen_bench: WRONG RESULT from %s. Refusing to benchmark "
               "incorrect code.\n",
               what.c_str());
  std::abort();
}

template <class T>
std::string show(T v) {
  char buf[64];
  if constexpr (std::is_integral_v<T>)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(int32_t a, int32_t b) { return a == b; }

template <class T>
void verify_arg(const std::string& name, ArgFn<T> fn, const Array<T>& a) {
  // Poisoned outputs: a kernel that never writes them is caught.
  T value = std::is_integral_v<T> ? T(0x7f7f7f7f) : std::numeric_limits<T>::quiet_NaN();
  int64_t index = -12345;
  fn(a.data(), a.n, &value, &index);
  if (!same_bits(value, a.ref.value) || index != a.ref.index)
    fail(name + ": got (" + show(value) + ", " + std::to_string(index) + "), expected (" +
         show(a.ref.value) + ", " + std::to_string(a.ref.index) + ")");
}

template <class T>
void verify_sum(const std::string& name, SumFn<T> fn, const Array<T>& a) {
  const T got = fn(a.data(), a.n), want = reference_sum(a.data(), a.n);
  if (!same_bits(got, want))
    fail(name + ": sum " + show(got) + ", expected " + show(want));
}

// Registered now, checked on the first call (so --benchmark_filter also
// selects what is checked and built), then timed.
template <class T>
void register_arg(const std::string& name, ArgFn<T> fn, Data d, int64_t n) {
  auto verified = std::make_shared<bool>(false);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const Array<T>& a = array<T>(d, n);
    if (!*verified) {
      verify_arg(name, fn, a);
      *verified = true;
    }
    T value{};
    int64_t index = 0;
    for (auto _ : state) {
      fn(a.data(), n, &value, &index);
      benchmark::DoNotOptimize(value);
      benchmark::DoNotOptimize(index);
    }
    set_counters<T>(state, n);
  });
}

template <class T>
void register_sum(const std::string& name, SumFn<T> fn, Data d, int64_t n) {
  auto verified = std::make_shared<bool>(false);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const Array<T>& a = array<T>(d, n);
    if (!*verified) {
      verify_sum(name, fn, a);
      *verified = true;
    }
    for (auto _ : state) benchmark::DoNotOptimize(fn(a.data(), n));
    set_counters<T>(state, n);
  });
}

// A variant is timed only where it can run (the dispatcher's own test).
bool cpu_has(const char* variant) {
  const std::string v = variant;
  if (v == "scalar") return true;
  if (v == "avx2") return __builtin_cpu_supports("avx2");
  if (v == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  std::fprintf(stderr, "simdgen_bench: unknown argmax variant '%s' (update bench_arg.cpp)\n",
               variant);
  std::abort();
}

template <class T>
struct Impl {
  std::string name;  // make_table.py picks "plain.clang19" and "sum_bw.*" by name
  ArgFn<T> fn;
};

// Order within each (kernel, data, n) group: generated, plain loops, library
// peers; then the bandwidth reference.
template <class T>
void register_kernel(const std::string& kernel, const std::vector<Impl<T>>& impls,
                     SumFn<T> sum) {
  for (int64_t n : kSizes)
    for (Data d : {Data::kRandom, Data::kIncreasing}) {
      const std::string suffix = std::string("/") + data_name(d) + "/" + std::to_string(n);
      for (const Impl<T>& impl : impls)
        register_arg<T>(kernel + "/" + impl.name + suffix, impl.fn, d, n);
      if (__builtin_cpu_supports("avx512f"))
        register_sum<T>(kernel + "/sum_bw.avx512" + suffix, sum, d, n);
    }
}

void register_argmax() {
  __builtin_cpu_init();  // runs before main: __builtin_cpu_supports needs it
  std::vector<Impl<int32_t>> i32 = {{"simdgen", argmax_i32}};
  std::vector<Impl<float>> f32 = {{"simdgen", argmax_f32}};
#define SIMDGEN_ARG_VARIANT_I32(v) \
  if (cpu_has(#v)) i32.push_back({"simdgen." #v, argmax_i32_##v});
#define SIMDGEN_ARG_VARIANT_F32(v) \
  if (cpu_has(#v)) f32.push_back({"simdgen." #v, argmax_f32_##v});
  SIMDGEN_argmax_i32_VARIANTS(SIMDGEN_ARG_VARIANT_I32)
  SIMDGEN_argmax_f32_VARIANTS(SIMDGEN_ARG_VARIANT_F32)
#undef SIMDGEN_ARG_VARIANT_I32
#undef SIMDGEN_ARG_VARIANT_F32
#define SIMDGEN_ARG_PLAIN(suffix)                                      \
  i32.push_back({"plain." #suffix, plain_argmax_i32_##suffix});        \
  f32.push_back({"plain." #suffix, plain_argmax_f32_##suffix});
  SIMDGEN_ARG_PLAIN_PEER_BUILDS(SIMDGEN_ARG_PLAIN)
#undef SIMDGEN_ARG_PLAIN
  i32.push_back({"std.max_element", std_max_element_i32});
  f32.push_back({"std.max_element", std_max_element_f32});
  i32.push_back({"eigen", eigen_argmax_i32});
  f32.push_back({"eigen", eigen_argmax_f32});

  register_kernel<int32_t>("argmax_i32", i32, sum_i32_avx512);
  register_kernel<float>("argmax_f32", f32, sum_f32_avx512);
  benchmark::AddCustomContext("argmax_i32_variant", argmax_i32_variant());
  benchmark::AddCustomContext("argmax_f32_variant", argmax_f32_variant());
}

// Static registration, as BENCHMARK() does: these cases are registered before
// main() registers the rest, so they come first in a full run.
[[maybe_unused]] const bool kArgmaxRegistered = (register_argmax(), true);

}  // namespace
}  // namespace simdgen_bench
