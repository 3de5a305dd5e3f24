// SPDX-License-Identifier: Apache-2.0
// transpose benchmarks: the generated f32 transposes (the static 16x16 tile
// kernel and the runtime-shape kernel, dispatcher and each x86 variant by
// name) against hand-written shuffle networks, plain loops (clang++-19 and
// g++-12, -O3 -march=native), Eigen 3.4 and memcpy of the same bytes.
//
// Names: "transpose/<rows>x<cols>/<impl>". Matrices are contiguous (input row
// stride = cols, output row stride = rows). 16x16 and 8x8 are single tiles in
// L1; 1000x1000 and 1024x1024 (4 MiB each way) come from L2/L3; 4096x1 and
// 1x4096 are the degenerate shapes where every tile is an edge. Every case
// calls its kernel through a function pointer on the same buffers each
// iteration, and is checked once against a scalar transpose before it is
// timed, including that nothing past the output is written; a mismatch
// aborts the run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>

#include "peers_transpose_eigen.h"
#include "peers_transpose_hand.h"
#include "peers_transpose_plain.h"
#include "transpose_16x16_f32.h"
#include "transpose_f32.h"

namespace simdgen_bench {
namespace {

// Same shapes as the generated kernels and the peers: the runtime-shape one.
using TransposeFn = void (*)(const float* in, int64_t rows, int64_t cols, int64_t lda,
                             int64_t ldo, float* out);
// A single contiguous tile (the static 16x16 kernel, the hand tile networks).
using TileFn = void (*)(const float* in, float* out);

bool cpu_avx512() {  // what the generated avx512 variants are built for
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("bmi2");
}
bool cpu_avx2() { return __builtin_cpu_supports("avx2"); }

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float, FreeDeleter>;

// Floats past the output that must stay untouched.
constexpr int64_t kGuard = 64;

Buffer alloc(int64_t n) {  // 64-byte aligned, rounded up to whole lines
  const size_t bytes = (static_cast<size_t>(n) * sizeof(float) + 63) / 64 * 64;
  Buffer b(static_cast<float*>(std::aligned_alloc(64, bytes)));
  std::memset(b.get(), 0, bytes);
  return b;
}

// One random input per shape, shared by every implementation so that all
// read the same bytes.
const float* input(int64_t rows, int64_t cols) {
  static std::map<std::pair<int64_t, int64_t>, Buffer> cache;
  auto [it, fresh] = cache.try_emplace({rows, cols});
  if (fresh) {
    it->second = alloc(rows * cols);
    std::mt19937_64 rng(0x7a000u + static_cast<uint64_t>(rows * 7919 + cols));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (int64_t i = 0; i < rows * cols; ++i) it->second.get()[i] = dist(rng);
  }
  return it->second.get();
}

// memcpy of the same bytes: the floor a transpose would reach if moving data
// were all it did. noinline, called through the same pointer type as the rest.
__attribute__((noinline)) void copy_f32(const float* in, int64_t rows, int64_t cols, int64_t,
                                        int64_t, float* out) {
  std::memcpy(out, in, static_cast<size_t>(rows * cols) * sizeof(float));
}

// Bit-exact against out[c * rows + r] = in[r * cols + c], and the guard after
// the output keeps its poison. memcpy is checked to copy instead.
void check(const std::string& name, const float* in, int64_t rows, int64_t cols,
           const float* out, bool is_copy) {
  const float poison = -12345.0f;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t at = is_copy ? r * cols + c : c * rows + r;
      if (std::memcmp(&out[at], &in[r * cols + c], sizeof(float)) != 0) {
        std::fprintf(stderr,
                     "simdgen_bench_transpose: WRONG RESULT from %s: output element %lld is "
                     "%.9g, expected %.9g. Refusing to benchmark incorrect code.\n",
                     name.c_str(), static_cast<long long>(at), out[at], in[r * cols + c]);
        std::abort();
      }
    }
  for (int64_t i = rows * cols; i < rows * cols + kGuard; ++i)
    if (std::memcmp(&out[i], &poison, sizeof(float)) != 0) {
      std::fprintf(stderr, "simdgen_bench_transpose: %s wrote past the output (element %lld)\n",
                   name.c_str(), static_cast<long long>(i));
      std::abort();
    }
}

// Registers one case: call(in, out) runs the implementation on the contiguous
// rows x cols input. Checked once (output poisoned first), then timed.
template <class Call>
void add(int64_t rows, int64_t cols, const std::string& impl, Call call, bool is_copy = false) {
  const std::string name =
      "transpose/" + std::to_string(rows) + "x" + std::to_string(cols) + "/" + impl;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const float* in = input(rows, cols);
    Buffer out = alloc(rows * cols + kGuard);
    std::fill_n(out.get(), rows * cols + kGuard, -12345.0f);
    call(in, out.get());
    check(name, in, rows, cols, out.get(), is_copy);
    for (auto _ : state) {
      call(in, out.get());
      benchmark::ClobberMemory();
    }
    // Bytes of the matrix moved per ns (each is read once and written once).
    state.counters["bytes_per_ns"] =
        benchmark::Counter(static_cast<double>(rows * cols * sizeof(float)) * 1e-9,
                           benchmark::Counter::kIsIterationInvariantRate);
  });
}

void add_fn(int64_t rows, int64_t cols, const std::string& impl, TransposeFn fn,
            bool is_copy = false) {
  add(rows, cols, impl,
      [=](const float* in, float* out) { fn(in, rows, cols, cols, rows, out); }, is_copy);
}

void add_tile(int64_t n, const std::string& impl, TileFn fn) {
  add(n, n, impl, [=](const float* in, float* out) { fn(in, out); });
}

// The plain loops of every build in peers_transpose_plain.h.
void add_plain(int64_t rows, int64_t cols) {
#define SIMDGEN_TRANSPOSE_PLAIN(suffix) \
  add_fn(rows, cols, "plain." #suffix, plain_transpose_f32_##suffix);
  SIMDGEN_TRANSPOSE_PLAIN_PEER_BUILDS(SIMDGEN_TRANSPOSE_PLAIN)
#undef SIMDGEN_TRANSPOSE_PLAIN
}

}  // namespace

void register_transpose_benchmarks() {
  const bool avx512 = cpu_avx512(), avx2 = cpu_avx2();

  // One 16x16 tile in L1: the static kernel, the runtime one at 16x16, the
  // hand networks, the plain loops and memcpy of the same 1 KiB.
  add_tile(16, "simdgen_16x16", transpose_16x16_f32);
  if (avx512) add_tile(16, "simdgen_16x16.avx512", transpose_16x16_f32_avx512);
  if (avx2) add_tile(16, "simdgen_16x16.avx2", transpose_16x16_f32_avx2);
  add_tile(16, "simdgen_16x16.scalar", transpose_16x16_f32_scalar);
  add_fn(16, 16, "simdgen", transpose_f32);
  if (avx512) add_fn(16, 16, "simdgen.avx512", transpose_f32_avx512);
  if (avx2) add_fn(16, 16, "simdgen.avx2", transpose_f32_avx2);
  add_fn(16, 16, "simdgen.scalar", transpose_f32_scalar);
  if (avx512) {  // shuf48's insertf32x8 is AVX-512DQ, present wherever cpu_avx512() holds
    add_tile(16, "hand.shuf64", hand_transpose_16x16_f32_shuf64);
    add_tile(16, "hand.shuf48", hand_transpose_16x16_f32_shuf48);
    // The same network in a runtime-shape loop: the peer of transpose_f32 here.
    add_fn(16, 16, "hand.tiled64", hand_transpose_f32_tiled);
  }
  add_plain(16, 16);
  add_fn(16, 16, "memcpy", copy_f32, true);

  // One 8x8 tile with AVX2 (the dispatcher picks AVX-512: one masked tile).
  if (avx2) {
    add_fn(8, 8, "simdgen.avx2", transpose_f32_avx2);
    add_tile(8, "hand.avx2", hand_transpose_8x8_f32_avx2);
  }
  add_fn(8, 8, "simdgen", transpose_f32);
  add_plain(8, 8);
  add_fn(8, 8, "memcpy", copy_f32, true);

  // Whole matrices.
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1000, 1000}, {1024, 1024}, {4096, 1},
                            {1, 4096}}) {
    add_fn(rows, cols, "simdgen", transpose_f32);
    if (avx512) add_fn(rows, cols, "simdgen.avx512", transpose_f32_avx512);
    if (avx2) add_fn(rows, cols, "simdgen.avx2", transpose_f32_avx2);
    add_plain(rows, cols);
    add_fn(rows, cols, "eigen", eigen_transpose_f32);
    if (avx512) add_fn(rows, cols, "hand.tiled64", hand_transpose_f32_tiled);
    add_fn(rows, cols, "memcpy", copy_f32, true);
  }
}

}  // namespace simdgen_bench
