// SPDX-License-Identifier: Apache-2.0
// map benchmarks (issue 8): the generated element-wise kernels, their
// dispatcher and each x86 variant by name, against plain loops (clang++-19
// and g++-12, -O3 -march=native) and Highway, over n = 1..64 (every size:
// tails of every length), a spread up to 4096 and 10^6.
//
// Names: "map/<kernel>/<impl>/<n>". Every case calls its kernel through a
// function pointer on the same buffers each iteration (data stays in L1/L2
// for n <= 4096), so small-n figures include the call, the dispatch and the
// tail. Each case is checked once against a scalar reference before it is
// first timed, including that nothing past element n is written; a mismatch
// aborts the run.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "harness.h"
#include "map_absdiff_i16.h"
#include "map_axpby_fma_f32.h"
#include "map_blend_u8.h"
#include "map_bits_u8_i8.h"
#include "map_f32_to_u8_nearest.h"
#include "map_norm_floor_f32.h"
#include "map_u8_to_f32_fma.h"
#include "peers_map_highway.h"
#include "peers_map_plain.h"
#include "peers_map_plain_math.h"
#include "times_two_n.h"
#include "times_two_n_scalar_tail.h"

namespace simdgen_bench {
// map_proposal.cpp: hand-written AVX-512 loops in the shape the benchmark
// suggests for the generator, and a dispatcher in the suggested shape.
void proposal_times_two_avx512(const float* a, int64_t n, float* b);
void proposal_axpby_fma_avx512(const float* x, const float* y, int64_t n, float alpha,
                               float beta, float* out);
void proposal_absdiff_i16_avx512(const int16_t* a, const int16_t* b, int64_t n, int16_t* out);
void proposal_times_two(const float* a, int64_t n, float* b);

namespace {

bool cpu_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
bool cpu_avx2() { return __builtin_cpu_supports("avx2"); }
bool cpu_avx2_fma() { return cpu_avx2() && __builtin_cpu_supports("fma"); }

// n = 1..64 (all), then a spread up to 4096, then 10^6 (4 MB of f32 per
// array: L3 on Zen 4).
std::vector<int64_t> map_sizes() {
  std::vector<int64_t> s;
  for (int64_t n = 1; n <= 64; ++n) s.push_back(n);
  for (int64_t n : {65, 100, 127, 128, 255, 256, 1000, 1023, 1024, 4095, 4096, 1000000})
    s.push_back(n);
  return s;
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// Elements past n that are checked to stay untouched.
constexpr int64_t kGuard = 64;

template <class T>
struct Buffer {
  std::unique_ptr<T, FreeDeleter> storage;
  T* data() const { return storage.get(); }
};

// 64-byte aligned, n + kGuard elements.
template <class T>
Buffer<T> alloc(int64_t n) {
  const size_t bytes = (static_cast<size_t>(n + kGuard) * sizeof(T) + 63) / 64 * 64;
  Buffer<T> b;
  b.storage.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
  std::memset(b.data(), 0, bytes);
  return b;
}

// One random input array per (type, n, which), shared by every
// implementation of a group so that all read the same bytes.
template <class T>
const T* input(int64_t n, int which) {
  static std::map<std::pair<int64_t, int>, Buffer<T>> cache;
  auto [it, fresh] = cache.try_emplace({n, which});
  if (!fresh) return it->second.data();
  it->second = alloc<T>(n);
  T* p = it->second.data();
  std::mt19937_64 rng(0x3a90000u + static_cast<uint64_t>(n) * 2 + which);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int> dist(-32768, 32767);
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(dist(rng));
  } else {
    std::uniform_real_distribution<T> dist(T(-1), T(1));
    for (int64_t i = 0; i < n; ++i) p[i] = dist(rng);
  }
  return p;
}

[[noreturn]] void fail(const std::string& name, int64_t i, double got, double want) {
  std::fprintf(stderr,
               "simdgen_bench_map: WRONG RESULT from %s at element %lld: got %.9g, expected "
               "%.9g. Refusing to benchmark incorrect code.\n",
               name.c_str(), static_cast<long long>(i), got, want);
  std::abort();
}

// Exact comparison (every implementation rounds each op once, fma once),
// and the guard elements past n keep their poison.
template <class T>
void check(const std::string& name, const T* out, const std::vector<T>& ref, T poison) {
  const int64_t n = static_cast<int64_t>(ref.size());
  for (int64_t i = 0; i < n; ++i)
    if (std::memcmp(&out[i], &ref[i], sizeof(T)) != 0)
      fail(name, i, static_cast<double>(out[i]), static_cast<double>(ref[i]));
  for (int64_t i = n; i < n + kGuard; ++i)
    if (std::memcmp(&out[i], &poison, sizeof(T)) != 0)
      fail(name + " (wrote past n)", i, static_cast<double>(out[i]),
           static_cast<double>(poison));
}

void set_counters(benchmark::State& state, int64_t n) {
  state.counters["n"] = static_cast<double>(n);
  state.counters["elements_per_ns"] = benchmark::Counter(
      static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void add(const std::string& name, std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(name.c_str(), body);
}

constexpr float kAlpha = 1.5f, kBeta = -0.75f;
constexpr float kScale = 1.0f / 255.0f, kBias = -0.5f, kQuantScale = 300.0f;

std::string case_name(const std::string& kernel, const std::string& impl, int64_t n) {
  return "map/" + kernel + "/" + impl + "/" + std::to_string(n);
}

// One case over n elements of output type T. `setup()` (run when the case starts: the shared
// inputs are made then) returns {call, ref}: call(out) runs the implementation, ref(i) is element
// i's expected value. The result is checked once, and that nothing past n is written, before
// the case is timed.
// The output buffer is shared too (one per type and n), so that every implementation of a case
// stores to the same addresses: where a small kernel's loads and the previous call's stores fall
// in the same 4 KiB page offsets (false store-to-load dependences) is then the same for all of
// them, not a per-case accident of the heap (a run of 2026-11-29 saw whole-cycle differences
// between implementations at n < 64 that moved from run to run).
template <class T>
T* output(int64_t n) {
  static std::map<int64_t, Buffer<T>> cache;
  auto [it, fresh] = cache.try_emplace(n);
  if (fresh) it->second = alloc<T>(n);
  return it->second.data();
}

template <class T, class Setup>
void add_case(const std::string& name, int64_t n, T poison, Setup setup) {
  add(name, [=](benchmark::State& state) {
    const auto [call, ref] = setup();
    T* const out = output<T>(n);
    std::fill_n(out, n + kGuard, poison);
    call(out);
    std::vector<T> want(n);
    for (int64_t i = 0; i < n; ++i) want[i] = ref(i);
    check(name, out, want, poison);
    for (auto _ : state) {
      call(out);
      benchmark::ClobberMemory();
    }
    set_counters(state, n);
  });
}

// ---- the kernels ---------------------------------------------------------

// B = A * 2 (f32)
void add_times_two(const std::string& kernel, const std::string& impl, MapF32x1 fn, int64_t n) {
  add_case<float>(case_name(kernel, impl, n), n, -12345.0f, [=] {
    const float* a = input<float>(n, 0);
    return std::pair{[=](float* out) { fn(a, n, out); }, [=](int64_t i) { return a[i] * 2.0f; }};
  });
}

// out = fma(alpha, x, beta * y) (f32)
void add_axpby(const std::string& kernel, const std::string& impl, MapAxpby fn, int64_t n) {
  add_case<float>(case_name(kernel, impl, n), n, -12345.0f, [=] {
    const float *x = input<float>(n, 0), *y = input<float>(n, 1);
    return std::pair{[=](float* out) { fn(x, y, n, kAlpha, kBeta, out); },
                     [=](int64_t i) { return std::fma(kAlpha, x[i], kBeta * y[i]); }};
  });
}

// out = |a - b| wrapping in 16 bits
void add_absdiff(const std::string& kernel, const std::string& impl, MapI16x2 fn, int64_t n) {
  add_case<int16_t>(case_name(kernel, impl, n), n, int16_t{0x5a5a}, [=] {
    const int16_t *a = input<int16_t>(n, 0), *b = input<int16_t>(n, 1);
    return std::pair{[=](int16_t* out) { fn(a, b, n, out); }, [=](int64_t i) {
                       return a[i] > b[i] ? static_cast<int16_t>(a[i] - b[i]) : static_cast<int16_t>(b[i] - a[i]);
                     }};
  });
}

// y = fma((float)px, scale, bias): bytes to floats (element widths differ).
void add_u8_to_f32(const std::string& kernel, const std::string& impl, MapU8ToF32 fn, int64_t n) {
  add_case<float>(case_name(kernel, impl, n), n, -12345.0f, [=] {
    const uint8_t* px = input<uint8_t>(n, 0);
    return std::pair{[=](float* out) { fn(px, n, kScale, kBias, out); },
                     [=](int64_t i) { return std::fma(static_cast<float>(px[i]), kScale, kBias); }};
  });
}

// q = x * scale rounded to nearest even, saturated to 0..255 (inputs in [-1, 1) times 300: both
// bounds are hit).
void add_f32_to_u8(const std::string& kernel, const std::string& impl, MapF32ToU8 fn, int64_t n) {
  add_case<uint8_t>(case_name(kernel, impl, n), n, uint8_t{0x5a}, [=] {
    const float* x = input<float>(n, 0);
    return std::pair{[=](uint8_t* out) { fn(x, n, kQuantScale, out); }, [=](int64_t i) {
                       const float v = std::nearbyint(x[i] * kQuantScale);
                       return v < 0.0f ? uint8_t{0} : v > 255.0f ? uint8_t{255} : static_cast<uint8_t>(v);
                     }};
  });
}

// specs/map_bits_u8_i8.json: four 8-bit outputs of bitwise operators and shifts of a (u8) and s
// (i8). The reference is C on the promoted ints (s << 6 as s * 64, defined for negative s).
void add_bits(const std::string& kernel, const std::string& impl, MapBitsU8I8 fn, int64_t n) {
  const std::string name = case_name(kernel, impl, n);
  add(name, [=](benchmark::State& state) {
    const uint8_t* a = input<uint8_t>(n, 0);
    const int8_t* s = input<int8_t>(n, 1);
    Buffer<uint8_t> swapped = alloc<uint8_t>(n), mixed = alloc<uint8_t>(n);
    Buffer<int8_t> halved = alloc<int8_t>(n), odd = alloc<int8_t>(n);
    std::fill_n(swapped.data(), n + kGuard, uint8_t{0x5a});
    std::fill_n(mixed.data(), n + kGuard, uint8_t{0x5a});
    std::fill_n(halved.data(), n + kGuard, int8_t{0x5a});
    std::fill_n(odd.data(), n + kGuard, int8_t{0x5a});
    fn(a, s, n, swapped.data(), mixed.data(), halved.data(), odd.data());
    std::vector<uint8_t> want1(n), want2(n);
    std::vector<int8_t> want3(n), want4(n);
    for (int64_t i = 0; i < n; ++i) {
      want1[i] = static_cast<uint8_t>((a[i] >> 4) | (a[i] << 4));
      want2[i] = static_cast<uint8_t>(~a[i] ^ ((a[i] >> 3) & 0x5A));
      want3[i] = static_cast<int8_t>((s[i] >> 1) + (s[i] >> 7) - s[i] * 64);
      want4[i] = (s[i] & 1) == 1 ? static_cast<int8_t>(s[i] >> 2) : static_cast<int8_t>(~s[i] | 0x40);
    }
    check(name + " swapped", swapped.data(), want1, uint8_t{0x5a});
    check(name + " mixed", mixed.data(), want2, uint8_t{0x5a});
    check(name + " halved", halved.data(), want3, int8_t{0x5a});
    check(name + " odd", odd.data(), want4, int8_t{0x5a});
    for (auto _ : state) {
      fn(a, s, n, swapped.data(), mixed.data(), halved.data(), odd.data());
      benchmark::ClobberMemory();
    }
    set_counters(state, n);
  });
}

// specs/map_norm_floor_f32.json: norm = sqrt(x * x + y * y), cell = floor(x * 0.25); inputs in
// [-1, 1), so floor gives -1 or 0 (the zeros' signs are compared too).
void add_norm_floor(const std::string& kernel, const std::string& impl, MapNormFloor fn, int64_t n) {
  const std::string name = case_name(kernel, impl, n);
  add(name, [=](benchmark::State& state) {
    const float *x = input<float>(n, 0), *y = input<float>(n, 1);
    Buffer<float> norm = alloc<float>(n), cell = alloc<float>(n);
    std::fill_n(norm.data(), n + kGuard, -12345.0f);
    std::fill_n(cell.data(), n + kGuard, -12345.0f);
    fn(x, y, n, norm.data(), cell.data());
    std::vector<float> want1(n), want2(n);
    for (int64_t i = 0; i < n; ++i) {
      const float xx = x[i] * x[i], yy = y[i] * y[i];
      want1[i] = std::sqrt(xx + yy);
      want2[i] = std::floor(x[i] * 0.25f);
    }
    check(name + " norm", norm.data(), want1, -12345.0f);
    check(name + " cell", cell.data(), want2, -12345.0f);
    for (auto _ : state) {
      fn(x, y, n, norm.data(), cell.data());
      benchmark::ClobberMemory();
    }
    set_counters(state, n);
  });
}

// specs/map_blend_u8.json: lighten = add_sat(a, b), darken = sub_sat(a, b), mean = avg_round(a, b)
// on random bytes (about half of the sums saturate).
void add_blend(const std::string& kernel, const std::string& impl, MapBlendU8 fn, int64_t n) {
  const std::string name = case_name(kernel, impl, n);
  add(name, [=](benchmark::State& state) {
    const uint8_t *a = input<uint8_t>(n, 0), *b = input<uint8_t>(n, 1);
    Buffer<uint8_t> lighten = alloc<uint8_t>(n), darken = alloc<uint8_t>(n), mean = alloc<uint8_t>(n);
    for (uint8_t* p : {lighten.data(), darken.data(), mean.data()}) std::fill_n(p, n + kGuard, uint8_t{0x5a});
    fn(a, b, n, lighten.data(), darken.data(), mean.data());
    std::vector<uint8_t> want1(n), want2(n), want3(n);
    for (int64_t i = 0; i < n; ++i) {
      const int x = a[i], y = b[i];
      want1[i] = static_cast<uint8_t>(std::min(x + y, 255));
      want2[i] = static_cast<uint8_t>(std::max(x - y, 0));
      want3[i] = static_cast<uint8_t>((x + y + 1) / 2);
    }
    check(name + " lighten", lighten.data(), want1, uint8_t{0x5a});
    check(name + " darken", darken.data(), want2, uint8_t{0x5a});
    check(name + " mean", mean.data(), want3, uint8_t{0x5a});
    for (auto _ : state) {
      fn(a, b, n, lighten.data(), darken.data(), mean.data());
      benchmark::ClobberMemory();
    }
    set_counters(state, n);
  });
}

// The harness's own cost per call: an empty kernel called the same way (through
// a function pointer, then ClobberMemory). Nothing to verify.
__attribute__((noinline)) void empty_kernel(const float* a, int64_t n, float* b) {
  asm volatile("" : : "r"(a), "r"(n), "r"(b) : "memory");
}

void add_call_floor() {
  add("map/call_floor/empty/0", [](benchmark::State& state) {
    MapF32x1 fn = empty_kernel;
    benchmark::DoNotOptimize(fn);
    for (auto _ : state) {
      fn(nullptr, 0, nullptr);
      benchmark::ClobberMemory();
    }
    set_counters(state, 0);
  });
}

}  // namespace

void register_map_benchmarks() {
  add_call_floor();
  const HighwayMapAvx3 hwy3 = hwy_map_avx3_dl();
  for (int64_t n : map_sizes()) {
    // times_two: B[i] = A[i] * 2 (f32)
    add_times_two("times_two", "simdgen", times_two_n, n);
    if (cpu_avx512()) add_times_two("times_two", "simdgen.avx512", times_two_n_avx512, n);
    if (cpu_avx2()) add_times_two("times_two", "simdgen.avx2", times_two_n_avx2, n);
    add_times_two("times_two", "simdgen_scalar_tail", times_two_n_scalar_tail, n);
    if (cpu_avx512())
      add_times_two("times_two", "simdgen_scalar_tail.avx512", times_two_n_scalar_tail_avx512,
                    n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_times_two("times_two", "plain." #suffix, plain_times_two_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_times_two("times_two", "hwy", hwy_times_two, n);
    if (hwy3.times_two) add_times_two("times_two", "hwy.avx3_dl", hwy3.times_two, n);
    if (cpu_avx512()) {
      add_times_two("times_two", "proposal", proposal_times_two, n);
      add_times_two("times_two", "proposal.avx512", proposal_times_two_avx512, n);
    }

    // axpby_fma: out[i] = fma(alpha, x[i], beta * y[i]) (f32)
    add_axpby("axpby_fma_f32", "simdgen", map_axpby_fma_f32, n);
    if (cpu_avx512()) add_axpby("axpby_fma_f32", "simdgen.avx512", map_axpby_fma_f32_avx512, n);
    if (cpu_avx2_fma())
      add_axpby("axpby_fma_f32", "simdgen.avx2_fma", map_axpby_fma_f32_avx2_fma, n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_axpby("axpby_fma_f32", "plain." #suffix, plain_axpby_fma_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_axpby("axpby_fma_f32", "hwy", hwy_axpby_fma, n);
    if (hwy3.axpby_fma) add_axpby("axpby_fma_f32", "hwy.avx3_dl", hwy3.axpby_fma, n);
    if (cpu_avx512())
      add_axpby("axpby_fma_f32", "proposal.avx512", proposal_axpby_fma_avx512, n);

    // absdiff_i16: out[i] = select(a > b, a - b, b - a) (i16, wrapping)
    add_absdiff("absdiff_i16", "simdgen", map_absdiff_i16, n);
    if (cpu_avx512()) add_absdiff("absdiff_i16", "simdgen.avx512", map_absdiff_i16_avx512, n);
    if (cpu_avx2()) add_absdiff("absdiff_i16", "simdgen.avx2", map_absdiff_i16_avx2, n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_absdiff("absdiff_i16", "plain." #suffix, plain_absdiff_i16_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_absdiff("absdiff_i16", "hwy", hwy_absdiff_i16, n);
    if (hwy3.absdiff_i16) add_absdiff("absdiff_i16", "hwy.avx3_dl", hwy3.absdiff_i16, n);
    if (cpu_avx512())
      add_absdiff("absdiff_i16", "proposal.avx512", proposal_absdiff_i16_avx512, n);

    // u8_to_f32_fma and f32_to_u8_nearest: element widths differ
    add_u8_to_f32("u8_to_f32_fma", "simdgen", map_u8_to_f32_fma, n);
    if (cpu_avx512()) add_u8_to_f32("u8_to_f32_fma", "simdgen.avx512", map_u8_to_f32_fma_avx512, n);
    if (cpu_avx2_fma())
      add_u8_to_f32("u8_to_f32_fma", "simdgen.avx2_fma", map_u8_to_f32_fma_avx2_fma, n);
    add_u8_to_f32("u8_to_f32_fma", "simdgen.scalar", map_u8_to_f32_fma_scalar, n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_u8_to_f32("u8_to_f32_fma", "plain." #suffix, plain_u8_to_f32_fma_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_u8_to_f32("u8_to_f32_fma", "hwy", hwy_u8_to_f32_fma, n);
    if (hwy3.u8_to_f32_fma) add_u8_to_f32("u8_to_f32_fma", "hwy.avx3_dl", hwy3.u8_to_f32_fma, n);

    add_f32_to_u8("f32_to_u8_nearest", "simdgen", map_f32_to_u8_nearest, n);
    if (cpu_avx512())
      add_f32_to_u8("f32_to_u8_nearest", "simdgen.avx512", map_f32_to_u8_nearest_avx512, n);
    if (cpu_avx2())
      add_f32_to_u8("f32_to_u8_nearest", "simdgen.avx2", map_f32_to_u8_nearest_avx2, n);
    add_f32_to_u8("f32_to_u8_nearest", "simdgen.scalar", map_f32_to_u8_nearest_scalar, n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_f32_to_u8("f32_to_u8_nearest", "plain." #suffix, plain_f32_to_u8_nearest_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_f32_to_u8("f32_to_u8_nearest", "hwy", hwy_f32_to_u8_nearest, n);
    if (hwy3.f32_to_u8_nearest)
      add_f32_to_u8("f32_to_u8_nearest", "hwy.avx3_dl", hwy3.f32_to_u8_nearest, n);

    // bits_u8_i8: bitwise operators and shifts on bytes (four outputs)
    add_bits("bits_u8_i8", "simdgen", map_bits_u8_i8, n);
    if (cpu_avx512() && __builtin_cpu_supports("gfni"))
      add_bits("bits_u8_i8", "simdgen.avx512_gfni", map_bits_u8_i8_avx512_gfni, n);
    if (cpu_avx512()) add_bits("bits_u8_i8", "simdgen.avx512", map_bits_u8_i8_avx512, n);
    if (cpu_avx2()) add_bits("bits_u8_i8", "simdgen.avx2", map_bits_u8_i8_avx2, n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_bits("bits_u8_i8", "plain." #suffix, plain_bits_u8_i8_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_bits("bits_u8_i8", "hwy", hwy_bits_u8_i8, n);
    if (hwy3.bits_u8_i8) add_bits("bits_u8_i8", "hwy.avx3_dl", hwy3.bits_u8_i8, n);

    // norm_floor_f32: a square root and a floor per element (two outputs)
    add_norm_floor("norm_floor_f32", "simdgen", map_norm_floor_f32, n);
    if (cpu_avx512()) add_norm_floor("norm_floor_f32", "simdgen.avx512", map_norm_floor_f32_avx512, n);
    if (cpu_avx2()) add_norm_floor("norm_floor_f32", "simdgen.avx2", map_norm_floor_f32_avx2, n);
#define SIMDGEN_MAP_PLAIN(suffix) \
  add_norm_floor("norm_floor_f32", "plain." #suffix, plain_norm_floor_f32_##suffix, n);
    SIMDGEN_MAP_PLAIN_MATH_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_norm_floor("norm_floor_f32", "hwy", hwy_norm_floor_f32, n);
    if (hwy3.norm_floor_f32) add_norm_floor("norm_floor_f32", "hwy.avx3_dl", hwy3.norm_floor_f32, n);

    // blend_u8: saturating add and subtract and the rounded mean of two byte arrays
    add_blend("blend_u8", "simdgen", map_blend_u8, n);
    if (cpu_avx512()) add_blend("blend_u8", "simdgen.avx512", map_blend_u8_avx512, n);
    if (cpu_avx2()) add_blend("blend_u8", "simdgen.avx2", map_blend_u8_avx2, n);
#define SIMDGEN_MAP_PLAIN(suffix) add_blend("blend_u8", "plain." #suffix, plain_blend_u8_##suffix, n);
    SIMDGEN_MAP_PLAIN_PEER_BUILDS(SIMDGEN_MAP_PLAIN)
#undef SIMDGEN_MAP_PLAIN
    add_blend("blend_u8", "hwy", hwy_blend_u8, n);
    if (hwy3.blend_u8) add_blend("blend_u8", "hwy.avx3_dl", hwy3.blend_u8, n);
  }
}

}  // namespace simdgen_bench
