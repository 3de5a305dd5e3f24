// SPDX-License-Identifier: Apache-2.0
// Interleaved RGB bytes -> three f32 planes (issue 72 item 6): the generated kernel (strided u8
// inputs at a stride of 3: vpshufb de-interleaving on AVX2) against Highway's LoadInterleaved3 and
// the plain loop under clang++-19 and g++-12 (-O3 -march=native). Every implementation's planes
// are checked bit for bit against a scalar reference before it is timed.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "peers_rgb.h"
#include "rgb_to_planar_f32.h"

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

}  // namespace

int main(int argc, char** argv) {
  for (const auto& [w, h] : std::vector<std::pair<int64_t, int64_t>>{{1920, 1080}, {64, 64}, {640, 480}}) {
    add("simdgen", simdgen(rgb_to_planar_f32), w, h);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) add("simdgen.avx512", simdgen(rgb_to_planar_f32_avx512), w, h);
    if (__builtin_cpu_supports("avx2")) add("simdgen.avx2", simdgen(rgb_to_planar_f32_avx2), w, h);
    add("simdgen.scalar", simdgen(rgb_to_planar_f32_scalar), w, h);
    add("hwy", rgb_hwy, w, h);
    add("plain.clang19", rgb_plain_clang19, w, h);
    add("plain.gcc12", rgb_plain_gcc12, w, h);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
