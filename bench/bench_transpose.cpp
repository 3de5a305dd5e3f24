// SPDX-License-Identifier: Apache-2.0
// transpose benchmarks: the generated f32 transposes (the static 16x16 tile
// kernel and the runtime-shape kernel, dispatcher and each x86 variant by
// name, each with both tile networks: strategy unpack and half_rows) against
// hand-written shuffle networks, plain loops (clang++-19 and g++-12, -O3
// -march=native), Eigen 3.4 and memcpy of the same bytes; and 8- and 16-bit
// matrices against plain loops and memcpy.
//
// Names: "transpose/<rows>x<cols>[.u8|.u16]/<impl>". Matrices are contiguous (input row
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
#include <type_traits>
#include <utility>

#include <benchmark/benchmark.h>

#include "peers_transpose_eigen.h"
#include "peers_transpose_hand.h"
#include "peers_transpose_plain.h"
#include "transpose_16x16_f32.h"
#include "transpose_16x16_f32_half_rows.h"  // bench/transpose/specs, generated at build time
#include "transpose_8x8_f32.h"
#include "transpose_f32.h"
#include "transpose_f32_half_rows.h"
#include "transpose_in_place_f32.h"
#include "transpose_u16.h"
#include "transpose_u16_cached.h"
#include "transpose_f32_cached.h"
#include "transpose_u8.h"

namespace simdgen_bench {
namespace {

bool cpu_avx512() {  // what the generated avx512 variants are built for
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("bmi2");
}
bool cpu_avx2() { return __builtin_cpu_supports("avx2"); }

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
template <class T>
using Buffer = std::unique_ptr<T, FreeDeleter>;

// Elements past the output that must keep their poison (the byte 0xA5).
constexpr int64_t kGuard = 64;
constexpr unsigned char kPoison = 0xA5;

template <class T>
Buffer<T> alloc(int64_t n) {  // 64-byte aligned, rounded up to whole lines
  const size_t bytes = (static_cast<size_t>(n) * sizeof(T) + 63) / 64 * 64;
  Buffer<T> b(static_cast<T*>(std::aligned_alloc(64, bytes)));
  std::memset(b.get(), 0, bytes);
  return b;
}

// One random input per shape and type, shared by every implementation so that
// all read the same bytes.
template <class T>
const T* input(int64_t rows, int64_t cols) {
  static std::map<std::pair<int64_t, int64_t>, Buffer<T>> cache;
  auto [it, fresh] = cache.try_emplace({rows, cols});
  if (fresh) {
    it->second = alloc<T>(rows * cols);
    std::mt19937_64 rng(0x7a000u + static_cast<uint64_t>(rows * 7919 + cols));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (int64_t i = 0; i < rows * cols; ++i)
      it->second.get()[i] = std::is_floating_point_v<T> ? static_cast<T>(dist(rng)) : static_cast<T>(rng());
  }
  return it->second.get();
}

// memcpy of the same bytes: the floor a transpose would reach if moving data
// were all it did. noinline, called through the same pointer type as the rest.
template <class T>
__attribute__((noinline)) void copy(const T* in, int64_t rows, int64_t cols, int64_t, int64_t,
                                    T* out) {
  std::memcpy(out, in, static_cast<size_t>(rows * cols) * sizeof(T));
}

// Bit-exact against out[c * rows + r] = in[r * cols + c], and the guard after
// the output keeps its poison. memcpy is checked to copy instead.
template <class T>
void check(const std::string& name, const T* in, int64_t rows, int64_t cols, const T* out,
           bool is_copy) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t at = is_copy ? r * cols + c : c * rows + r;
      if (std::memcmp(&out[at], &in[r * cols + c], sizeof(T)) != 0) {
        std::fprintf(stderr,
                     "simdgen_bench_transpose: WRONG RESULT from %s: output element %lld "
                     "differs from input element %lld. Refusing to benchmark incorrect code.\n",
                     name.c_str(), static_cast<long long>(at),
                     static_cast<long long>(r * cols + c));
        std::abort();
      }
    }
  const auto* guard = reinterpret_cast<const unsigned char*>(out + rows * cols);
  for (size_t i = 0; i < kGuard * sizeof(T); ++i)
    if (guard[i] != kPoison) {
      std::fprintf(stderr, "simdgen_bench_transpose: %s wrote past the output (byte %zu after it)\n",
                   name.c_str(), i);
      std::abort();
    }
}

template <class T>
constexpr const char* type_suffix() {
  return std::is_same_v<T, float> ? "" : sizeof(T) == 1 ? ".u8" : ".u16";
}

// Registers one case: call(in, out) runs the implementation on the contiguous
// rows x cols input of T. Checked once (output poisoned first), then timed.
// Names: "transpose/<rows>x<cols>[.u8|.u16]/<impl>" (f32 has no suffix).
template <class T, class Call>
void add(int64_t rows, int64_t cols, const std::string& impl, Call call, bool is_copy = false) {
  const std::string name = "transpose/" + std::to_string(rows) + "x" + std::to_string(cols) +
                           type_suffix<T>() + "/" + impl;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const T* in = input<T>(rows, cols);
    Buffer<T> out = alloc<T>(rows * cols + kGuard);
    std::memset(out.get(), kPoison, static_cast<size_t>(rows * cols + kGuard) * sizeof(T));
    call(in, out.get());
    check(name, in, rows, cols, out.get(), is_copy);
    for (auto _ : state) {
      call(in, out.get());
      benchmark::ClobberMemory();
    }
    // Bytes of the matrix moved per ns (each is read once and written once).
    state.counters["bytes_per_ns"] =
        benchmark::Counter(static_cast<double>(rows * cols * sizeof(T)) * 1e-9,
                           benchmark::Counter::kIsIterationInvariantRate);
  });
}

// An in-place transpose of the n x n matrix at m (row stride n): checked once
// on a copy of the input, then timed on that buffer (each call transposes it
// back).
void add_in_place(int64_t n, const std::string& impl, void (*fn)(float* m, int64_t n)) {
  const std::string name = "transpose/" + std::to_string(n) + "x" + std::to_string(n) + "/" + impl;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    const float* in = input<float>(n, n);
    Buffer<float> m = alloc<float>(n * n + kGuard);
    std::memset(m.get(), kPoison, static_cast<size_t>(n * n + kGuard) * sizeof(float));
    std::memcpy(m.get(), in, static_cast<size_t>(n * n) * sizeof(float));
    fn(m.get(), n);
    check(name, in, n, n, m.get(), false);
    for (auto _ : state) {
      fn(m.get(), n);
      benchmark::ClobberMemory();
    }
    state.counters["bytes_per_ns"] =
        benchmark::Counter(static_cast<double>(n * n * sizeof(float)) * 1e-9,
                           benchmark::Counter::kIsIterationInvariantRate);
  });
}

// Same shapes as the generated kernels and the peers: the runtime-shape one.
template <class T>
using Fn = void (*)(const T* in, int64_t rows, int64_t cols, int64_t lda, int64_t ldo, T* out);
using TransposeFn = Fn<float>;
// A single contiguous tile (the static 16x16 kernel, the hand tile networks).
using TileFn = void (*)(const float* in, float* out);

template <class T>
void add_fn(int64_t rows, int64_t cols, const std::string& impl, Fn<T> fn, bool is_copy = false) {
  add<T>(rows, cols, impl, [=](const T* in, T* out) { fn(in, rows, cols, cols, rows, out); },
         is_copy);
}

void add_tile(int64_t n, const std::string& impl, TileFn fn) {
  add<float>(n, n, impl, [=](const float* in, float* out) { fn(in, out); });
}

// The plain loops of every build in peers_transpose_plain.h.
template <class T>
void add_plain(int64_t rows, int64_t cols) {
#define SIMDGEN_TRANSPOSE_PLAIN(suffix)                                             \
  if constexpr (std::is_same_v<T, float>)                                            \
    add_fn<T>(rows, cols, "plain." #suffix, plain_transpose_f32_##suffix);           \
  else if constexpr (sizeof(T) == 1)                                                 \
    add_fn<T>(rows, cols, "plain." #suffix, plain_transpose_u8_##suffix);            \
  else                                                                               \
    add_fn<T>(rows, cols, "plain." #suffix, plain_transpose_u16_##suffix);
  SIMDGEN_TRANSPOSE_PLAIN_PEER_BUILDS(SIMDGEN_TRANSPOSE_PLAIN)
#undef SIMDGEN_TRANSPOSE_PLAIN
}

}  // namespace

void register_transpose_benchmarks() {
  const bool avx512 = cpu_avx512(), avx2 = cpu_avx2();

  // One 16x16 tile in L1: the static kernel (both tile networks), the runtime
  // one at 16x16, the hand networks, the plain loops and memcpy of the same 1 KiB.
  add_tile(16, "simdgen_16x16", transpose_16x16_f32);
  if (avx512) add_tile(16, "simdgen_16x16.avx512", transpose_16x16_f32_avx512);
  if (avx512) add_tile(16, "simdgen_16x16_half_rows.avx512", transpose_16x16_f32_half_rows_avx512);
  if (avx2) add_tile(16, "simdgen_16x16.avx2", transpose_16x16_f32_avx2);
  if (avx2) add_tile(16, "simdgen_16x16_half_rows.avx2", transpose_16x16_f32_half_rows_avx2);
  add_tile(16, "simdgen_16x16.scalar", transpose_16x16_f32_scalar);
  add_fn<float>(16, 16, "simdgen", transpose_f32);
  if (avx512) add_fn<float>(16, 16, "simdgen.avx512", transpose_f32_avx512);
  if (avx512) add_fn<float>(16, 16, "simdgen_half_rows.avx512", transpose_f32_half_rows_avx512);
  if (avx2) add_fn<float>(16, 16, "simdgen.avx2", transpose_f32_avx2);
  add_fn<float>(16, 16, "simdgen.scalar", transpose_f32_scalar);
  if (avx512) {  // shuf48's insertf32x8 is AVX-512DQ, present wherever cpu_avx512() holds
    add_tile(16, "hand.shuf64", hand_transpose_16x16_f32_shuf64);
    add_tile(16, "hand.shuf48", hand_transpose_16x16_f32_shuf48);
    // The same network in a runtime-shape loop: the peer of transpose_f32 here.
    add_fn<float>(16, 16, "hand.tiled64", hand_transpose_f32_tiled);
  }
  add_plain<float>(16, 16);
  add_fn<float>(16, 16, "memcpy", copy<float>, true);

  // One 8x8 tile with AVX2 (the dispatcher picks AVX-512: one masked tile).
  if (avx2) {
    add_fn<float>(8, 8, "simdgen.avx2", transpose_f32_avx2);
    add_fn<float>(8, 8, "simdgen_half_rows.avx2", transpose_f32_half_rows_avx2);
    add_tile(8, "hand.avx2", hand_transpose_8x8_f32_avx2);
    add_tile(8, "simdgen_8x8.avx2", transpose_8x8_f32_avx2);  // static shape
  }
  add_fn<float>(8, 8, "simdgen", transpose_f32);
  add_plain<float>(8, 8);
  add_fn<float>(8, 8, "memcpy", copy<float>, true);

  // Whole matrices.
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1000, 1000}, {1024, 1024}, {4096, 1},
                            {1, 4096}}) {
    add_fn<float>(rows, cols, "simdgen", transpose_f32);
    if (avx512) add_fn<float>(rows, cols, "simdgen.avx512", transpose_f32_avx512);
    if (avx2) add_fn<float>(rows, cols, "simdgen.avx2", transpose_f32_avx2);
    if (rows == cols && avx512)
      add_fn<float>(rows, cols, "simdgen_half_rows.avx512", transpose_f32_half_rows_avx512);
    if (rows == cols && avx2)
      add_fn<float>(rows, cols, "simdgen_half_rows.avx2", transpose_f32_half_rows_avx2);
    if (rows == cols && avx512)  // stores "cached": the A/B for streaming stores
      add_fn<float>(rows, cols, "simdgen_cached.avx512", transpose_f32_cached_avx512);
    if (rows == cols && avx2)
      add_fn<float>(rows, cols, "simdgen_cached.avx2", transpose_f32_cached_avx2);
    add_plain<float>(rows, cols);
    add_fn<float>(rows, cols, "eigen", eigen_transpose_f32);
    if (avx512) add_fn<float>(rows, cols, "hand.tiled64", hand_transpose_f32_tiled);
    add_fn<float>(rows, cols, "memcpy", copy<float>, true);
    if (rows == cols && rows > 1) {  // in place: specs/transpose_in_place_f32, the plain swap loops
      add_in_place(rows, "simdgen_in_place", [](float* m, int64_t n) { transpose_in_place_f32(m, n, n, m); });
      if (avx512)
        add_in_place(rows, "simdgen_in_place.avx512",
                     [](float* m, int64_t n) { transpose_in_place_f32_avx512(m, n, n, m); });
      if (avx2)
        add_in_place(rows, "simdgen_in_place.avx2",
                     [](float* m, int64_t n) { transpose_in_place_f32_avx2(m, n, n, m); });
#define SIMDGEN_TRANSPOSE_IN_PLACE(suffix) \
  add_in_place(rows, "plain_in_place." #suffix, plain_transpose_in_place_f32_##suffix);
      SIMDGEN_TRANSPOSE_PLAIN_PEER_BUILDS(SIMDGEN_TRANSPOSE_IN_PLACE)
#undef SIMDGEN_TRANSPOSE_IN_PLACE
    }
  }

  // 8- and 16-bit matrices (the generated specs/transpose_u8, contiguous, and
  // bench/transpose/specs/transpose_u16 with row strides).
  for (int64_t n : {1000, 1024}) {
    add<uint8_t>(n, n, "simdgen", [=](const uint8_t* in, uint8_t* out) { transpose_u8(in, n, n, out); });
    if (avx512)
      add<uint8_t>(n, n, "simdgen.avx512",
                   [=](const uint8_t* in, uint8_t* out) { transpose_u8_avx512(in, n, n, out); });
    if (avx2)
      add<uint8_t>(n, n, "simdgen.avx2",
                   [=](const uint8_t* in, uint8_t* out) { transpose_u8_avx2(in, n, n, out); });
    add_plain<uint8_t>(n, n);
    add_fn<uint8_t>(n, n, "memcpy", copy<uint8_t>, true);
    add_fn<uint16_t>(n, n, "simdgen", transpose_u16);
    if (avx512) add_fn<uint16_t>(n, n, "simdgen.avx512", transpose_u16_avx512);
    if (avx2) add_fn<uint16_t>(n, n, "simdgen.avx2", transpose_u16_avx2);
    if (avx512) add_fn<uint16_t>(n, n, "simdgen_cached.avx512", transpose_u16_cached_avx512);
    if (avx2) add_fn<uint16_t>(n, n, "simdgen_cached.avx2", transpose_u16_cached_avx2);
    add_plain<uint16_t>(n, n);
    add_fn<uint16_t>(n, n, "memcpy", copy<uint16_t>, true);
  }

  // A matrix four times the L2 on each side (16 MiB each), where streaming stores pay most; the
  // plain loops and Eigen take tens of milliseconds here and are left out.
  add_fn<float>(2048, 2048, "simdgen", transpose_f32);
  if (avx512) add_fn<float>(2048, 2048, "simdgen.avx512", transpose_f32_avx512);
  if (avx512) add_fn<float>(2048, 2048, "simdgen_cached.avx512", transpose_f32_cached_avx512);
  if (avx2) add_fn<float>(2048, 2048, "simdgen.avx2", transpose_f32_avx2);
  if (avx2) add_fn<float>(2048, 2048, "simdgen_cached.avx2", transpose_f32_cached_avx2);
  if (avx512) add_fn<float>(2048, 2048, "hand.tiled64", hand_transpose_f32_tiled);
  add_fn<float>(2048, 2048, "memcpy", copy<float>, true);
}

}  // namespace simdgen_bench
