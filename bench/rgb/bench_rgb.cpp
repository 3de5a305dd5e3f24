// SPDX-License-Identifier: Apache-2.0
// Interleaved RGB bytes -> three f32 planes, and -> HSV's value bytes (issue 72 item 6): the
// generated kernels (strided u8 inputs at a stride of 3: vpshufb de-interleaving on x86) against
// Highway's LoadInterleaved3 and the plain loop under clang++-19 and g++-12 (-O3 -march=native).
// And the other way (issue 66, strided outputs): three f32 planes -> interleaved RGB bytes, and an
// RGBA alpha byte inverted in place, against the plain loops.
// Every implementation's output is checked bit for bit against a scalar reference before it is
// timed. The value kernel's bytes fill 64-lane vectors on AVX-512, the planes' 16-lane ones.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "invert_alpha_u8.h"
#include "peers_rgb.h"
#include "planar_to_rgb_u8.h"
#include "rgb_to_planar_f32.h"
#include "rgb_value_u8.h"

namespace {

using Fn = std::function<void(const uint8_t*, int64_t, float, float*, float*, float*)>;
constexpr float kScale = 1.0f / 255.0f;

struct Image {
  std::vector<uint8_t> rgb;
  std::vector<float> r, g, b;
  explicit Image(int64_t n) : rgb(size_t(3 * n)), r(size_t(n)), g(size_t(n)), b(size_t(n)) {
    uint32_t x = 12345;
    for (auto& v : rgb) v = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
  }
};

void check(const std::string& name, const Fn& fn, int64_t n) {
  Image im(n);
  fn(im.rgb.data(), n, kScale, im.r.data(), im.g.data(), im.b.data());
  for (int64_t i = 0; i < n; ++i) {
    const float want[3] = {float(im.rgb[size_t(3 * i)]) * kScale, float(im.rgb[size_t(3 * i + 1)]) * kScale,
                           float(im.rgb[size_t(3 * i + 2)]) * kScale};
    const float got[3] = {im.r[size_t(i)], im.g[size_t(i)], im.b[size_t(i)]};
    if (std::memcmp(want, got, sizeof want) != 0) {
      std::fprintf(stderr, "%s: pixel %lld of %lld differs from the reference\n", name.c_str(), (long long)i, (long long)n);
      std::abort();
    }
  }
}

void add(const std::string& impl, Fn fn, int64_t w, int64_t h) {
  const int64_t n = w * h;
  const std::string name = "rgb/" + impl + "/" + std::to_string(w) + "x" + std::to_string(h);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    check(name, fn, n);
    Image im(n);
    for (auto _ : state) {
      fn(im.rgb.data(), n, kScale, im.r.data(), im.g.data(), im.b.data());
      benchmark::DoNotOptimize(im.r.data());
      benchmark::ClobberMemory();
    }
    state.counters["pixels_per_ns"] = benchmark::Counter(double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(int64_t(state.iterations()) * n * (3 + 12));
  });
}

Fn simdgen(void (*kernel)(const uint8_t*, const uint8_t*, const uint8_t*, int64_t, float, float*, float*, float*)) {
  return [kernel](const uint8_t* rgb, int64_t n, float s, float* r, float* g, float* b) { kernel(rgb, rgb + 1, rgb + 2, n, s, r, g, b); };
}

using ValueFn = void (*)(const uint8_t*, int64_t, uint8_t*);

void checkValue(const std::string& name, ValueFn fn, int64_t n) {
  Image im(n);
  std::vector<uint8_t> value(size_t(n) + 1, 0xA5);
  fn(im.rgb.data(), n, value.data());
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* p = &im.rgb[size_t(3 * i)];
    const uint8_t want = std::max(std::max(p[0], p[1]), p[2]);
    if (value[size_t(i)] != want) {
      std::fprintf(stderr, "%s: pixel %lld of %lld differs from the reference\n", name.c_str(), (long long)i, (long long)n);
      std::abort();
    }
  }
  if (value[size_t(n)] != 0xA5) {
    std::fprintf(stderr, "%s: wrote past the last pixel\n", name.c_str());
    std::abort();
  }
}

void addValue(const std::string& impl, ValueFn fn, int64_t w, int64_t h) {
  const int64_t n = w * h;
  const std::string name = "value/" + impl + "/" + std::to_string(w) + "x" + std::to_string(h);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    checkValue(name, fn, n);
    Image im(n);
    std::vector<uint8_t> value(static_cast<size_t>(n));
    for (auto _ : state) {
      fn(im.rgb.data(), n, value.data());
      benchmark::DoNotOptimize(value.data());
      benchmark::ClobberMemory();
    }
    state.counters["pixels_per_ns"] = benchmark::Counter(double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(int64_t(state.iterations()) * n * (3 + 1));
  });
}

template <void (*Kernel)(const uint8_t*, const uint8_t*, const uint8_t*, int64_t, uint8_t*)>
void simdgenValue(const uint8_t* rgb, int64_t n, uint8_t* value) {
  Kernel(rgb, rgb + 1, rgb + 2, n, value);
}

// ---- strided outputs: planes -> RGB bytes, RGBA alpha inverted in place ----
using PlanarFn = std::function<void(const float*, const float*, const float*, int64_t, float, uint8_t*)>;

struct Planes {
  std::vector<float> r, g, b;
  explicit Planes(int64_t n) : r(size_t(n)), g(size_t(n)), b(size_t(n)) {
    uint32_t x = 777;
    for (auto* v : {&r, &g, &b})
      for (float& f : *v) f = float(int32_t((x = x * 1664525u + 1013904223u) >> 20) - 200) * 0.37f;  // -74 .. 1441: clamps both ways
  }
};

void addPlanar(const std::string& impl, PlanarFn fn, int64_t w, int64_t h) {
  const int64_t n = w * h;
  const std::string name = "planar_to_rgb/" + impl + "/" + std::to_string(w) + "x" + std::to_string(h);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    Planes p(n);
    std::vector<uint8_t> want(size_t(3 * n + 1), 0xA5), got(size_t(3 * n + 1), 0xA5);
    planar_plain_gcc12(p.r.data(), p.g.data(), p.b.data(), n, 0.5f, want.data());
    fn(p.r.data(), p.g.data(), p.b.data(), n, 0.5f, got.data());
    if (want != got) {
      std::fprintf(stderr, "%s: differs from the plain loop\n", name.c_str());
      std::abort();
    }
    for (auto _ : state) {
      fn(p.r.data(), p.g.data(), p.b.data(), n, 0.5f, got.data());
      benchmark::DoNotOptimize(got.data());
      benchmark::ClobberMemory();
    }
    state.counters["pixels_per_ns"] = benchmark::Counter(double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(int64_t(state.iterations()) * n * (12 + 3));
  });
}

template <void (*Kernel)(const float*, const float*, const float*, int64_t, float, uint8_t*, uint8_t*, uint8_t*)>
void simdgenPlanar(const float* r, const float* g, const float* b, int64_t n, float scale, uint8_t* rgb) {
  Kernel(r, g, b, n, scale, rgb, rgb + 1, rgb + 2);
}

using AlphaFn = void (*)(uint8_t*, int64_t);

void addAlpha(const std::string& impl, AlphaFn fn, int64_t w, int64_t h) {
  const int64_t n = w * h;
  const std::string name = "invert_alpha/" + impl + "/" + std::to_string(w) + "x" + std::to_string(h);
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    std::vector<uint8_t> want(size_t(4 * n + 1)), got;
    uint32_t x = 99;
    for (auto& v : want) v = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
    got = want;
    alpha_plain_gcc12(want.data(), n);
    fn(got.data(), n);
    if (want != got) {
      std::fprintf(stderr, "%s: differs from the plain loop\n", name.c_str());
      std::abort();
    }
    for (auto _ : state) {  // every call inverts the alpha bytes again
      fn(got.data(), n);
      benchmark::DoNotOptimize(got.data());
      benchmark::ClobberMemory();
    }
    state.counters["pixels_per_ns"] = benchmark::Counter(double(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(int64_t(state.iterations()) * n * 4);
  });
}

template <void (*Kernel)(const uint8_t*, int64_t, uint8_t*)>
void simdgenAlpha(uint8_t* rgba, int64_t n) {
  Kernel(rgba + 3, n, rgba + 3);
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& [w, h] : std::vector<std::pair<int64_t, int64_t>>{{1920, 1080}, {64, 64}, {640, 480}}) {
    add("simdgen", simdgen(rgb_to_planar_f32), w, h);
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"), vbmi = avx512 && __builtin_cpu_supports("avx512vbmi");
    if (vbmi) add("simdgen.avx512_vbmi", simdgen(rgb_to_planar_f32_avx512_vbmi), w, h);
    if (avx512) add("simdgen.avx512", simdgen(rgb_to_planar_f32_avx512), w, h);
    if (__builtin_cpu_supports("avx2")) add("simdgen.avx2", simdgen(rgb_to_planar_f32_avx2), w, h);
    add("simdgen.scalar", simdgen(rgb_to_planar_f32_scalar), w, h);
    add("hwy", rgb_hwy, w, h);
    add("plain.clang19", rgb_plain_clang19, w, h);
    add("plain.gcc12", rgb_plain_gcc12, w, h);
    addValue("simdgen", simdgenValue<rgb_value_u8>, w, h);
    if (vbmi) addValue("simdgen.avx512_vbmi", simdgenValue<rgb_value_u8_avx512_vbmi>, w, h);
    if (avx512) addValue("simdgen.avx512", simdgenValue<rgb_value_u8_avx512>, w, h);
    if (__builtin_cpu_supports("avx2")) addValue("simdgen.avx2", simdgenValue<rgb_value_u8_avx2>, w, h);
    addValue("simdgen.scalar", simdgenValue<rgb_value_u8_scalar>, w, h);
    addValue("hwy", value_hwy, w, h);
    addValue("plain.clang19", value_plain_clang19, w, h);
    addValue("plain.gcc12", value_plain_gcc12, w, h);
    addPlanar("simdgen", simdgenPlanar<planar_to_rgb_u8>, w, h);
    if (avx512) addPlanar("simdgen.avx512", simdgenPlanar<planar_to_rgb_u8_avx512>, w, h);
    if (__builtin_cpu_supports("avx2")) addPlanar("simdgen.avx2", simdgenPlanar<planar_to_rgb_u8_avx2>, w, h);
    addPlanar("simdgen.scalar", simdgenPlanar<planar_to_rgb_u8_scalar>, w, h);
    addPlanar("plain.clang19", planar_plain_clang19, w, h);
    addPlanar("plain.gcc12", planar_plain_gcc12, w, h);
    addAlpha("simdgen", simdgenAlpha<invert_alpha_u8>, w, h);
    if (vbmi) addAlpha("simdgen.avx512_vbmi", simdgenAlpha<invert_alpha_u8_avx512_vbmi>, w, h);
    if (avx512) addAlpha("simdgen.avx512", simdgenAlpha<invert_alpha_u8_avx512>, w, h);
    if (__builtin_cpu_supports("avx2")) addAlpha("simdgen.avx2", simdgenAlpha<invert_alpha_u8_avx2>, w, h);
    addAlpha("simdgen.scalar", simdgenAlpha<invert_alpha_u8_scalar>, w, h);
    addAlpha("plain.clang19", alpha_plain_clang19, w, h);
    addAlpha("plain.gcc12", alpha_plain_gcc12, w, h);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
