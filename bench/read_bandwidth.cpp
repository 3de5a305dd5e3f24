// SPDX-License-Identifier: Apache-2.0
// Read-bandwidth reference: the fastest way to merely load the bytes, so the
// kernels can be quoted as a percentage of it. 192 KiB is the i8 384x512
// working set (L2-resident on Zen 4, 1 MiB L2, 32 KiB L1D); 16 KiB shows the
// L1 ceiling that the 64x64 cases run against.
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "harness.h"

namespace simdgen_bench {
namespace {

// Eight independent accumulators: the loop is bound by loads, not by the
// add latency. Function-level target so the binary runs on any x86-64.
__attribute__((target("avx512f"))) int64_t read_sum_avx512(const void* buf,
                                                            size_t bytes) {
  const __m512i* p = static_cast<const __m512i*>(buf);
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
  __m512i a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  for (size_t i = 0; i < bytes / 64; i += 8) {
    a0 = _mm512_add_epi64(a0, _mm512_load_si512(p + i));
    a1 = _mm512_add_epi64(a1, _mm512_load_si512(p + i + 1));
    a2 = _mm512_add_epi64(a2, _mm512_load_si512(p + i + 2));
    a3 = _mm512_add_epi64(a3, _mm512_load_si512(p + i + 3));
    a4 = _mm512_add_epi64(a4, _mm512_load_si512(p + i + 4));
    a5 = _mm512_add_epi64(a5, _mm512_load_si512(p + i + 5));
    a6 = _mm512_add_epi64(a6, _mm512_load_si512(p + i + 6));
    a7 = _mm512_add_epi64(a7, _mm512_load_si512(p + i + 7));
  }
  a0 = _mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3));
  a4 = _mm512_add_epi64(_mm512_add_epi64(a4, a5), _mm512_add_epi64(a6, a7));
  // Stored and summed by hand: GCC 12's _mm512_reduce_add_epi64 trips
  // -Wuninitialized inside its own header.
  alignas(64) int64_t lanes[8];
  _mm512_store_si512(lanes, _mm512_add_epi64(a0, a4));
  int64_t sum = 0;
  for (int64_t lane : lanes) sum += lane;
  return sum;
}

// Same with 32-byte loads: the ceiling for the generated _avx2 variants.
__attribute__((target("avx2"))) int64_t read_sum_avx2(const void* buf,
                                                       size_t bytes) {
  const __m256i* p = static_cast<const __m256i*>(buf);
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  __m256i a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  for (size_t i = 0; i < bytes / 32; i += 8) {
    a0 = _mm256_add_epi64(a0, _mm256_load_si256(p + i));
    a1 = _mm256_add_epi64(a1, _mm256_load_si256(p + i + 1));
    a2 = _mm256_add_epi64(a2, _mm256_load_si256(p + i + 2));
    a3 = _mm256_add_epi64(a3, _mm256_load_si256(p + i + 3));
    a4 = _mm256_add_epi64(a4, _mm256_load_si256(p + i + 4));
    a5 = _mm256_add_epi64(a5, _mm256_load_si256(p + i + 5));
    a6 = _mm256_add_epi64(a6, _mm256_load_si256(p + i + 6));
    a7 = _mm256_add_epi64(a7, _mm256_load_si256(p + i + 7));
  }
  a0 = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
  a4 = _mm256_add_epi64(_mm256_add_epi64(a4, a5), _mm256_add_epi64(a6, a7));
  a0 = _mm256_add_epi64(a0, a4);
  alignas(32) int64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), a0);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

using ReadFn = int64_t (*)(const void*, size_t);

void register_read(const char* isa, ReadFn fn, size_t bytes) {
  // Every 64-bit word is 1, so the sum must equal the number of words.
  auto* buf = static_cast<int64_t*>(std::aligned_alloc(64, bytes));
  for (size_t i = 0; i < bytes / 8; ++i) buf[i] = 1;
  const std::string name =
      std::string("read_bw/") + isa + "/" + std::to_string(bytes / 1024) + "KiB";
  if (fn(buf, bytes) != static_cast<int64_t>(bytes / 8)) {
    std::fprintf(stderr, "simdgen_bench: WRONG RESULT from %s\n", name.c_str());
    std::abort();
  }
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(fn(buf, bytes));
    set_bandwidth_counters(state, static_cast<double>(bytes));
  });  // buf lives until exit, like the benchmark registry
}

}  // namespace

void register_read_bandwidth() {
  for (size_t kib : {192, 16}) {
    if (__builtin_cpu_supports("avx512f"))
      register_read("avx512", read_sum_avx512, kib * 1024);
    if (__builtin_cpu_supports("avx2")) register_read("avx2", read_sum_avx2, kib * 1024);
  }
}

}  // namespace simdgen_bench
