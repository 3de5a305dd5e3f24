// SPDX-License-Identifier: Apache-2.0
// SimSIMD 6 (the npm package's C headers, fetched into the build directory by CMakeLists.txt),
// header-only without dynamic dispatch: each kernel carries its own target attributes and is called
// by name where the CPU has its features: skylake (AVX-512), ice (AVX-512 VNNI: the i8 dot as
// vpdpwssd on bytes widened to 16 bits; VPOPCNTDQ: the Hamming distance), haswell (AVX2+FMA; its
// Hamming kernel is scalar popcnt), serial (Hamming only: a byte table, the portable fallback).
// SimSIMD returns doubles and, for cosine, the distance 1 - cos (clamped at 0), turned back into
// the similarity here. The query is one call per row (SimSIMD has no batched form in its C API).
#include <simsimd/simsimd.h>

#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {

using F32Kernel = void (*)(simsimd_f32_t const*, simsimd_f32_t const*, simsimd_size_t, simsimd_distance_t*);

template <F32Kernel K>
float one(const float* a, const float* b, int64_t n) {
  simsimd_distance_t d;
  K(a, b, static_cast<simsimd_size_t>(n), &d);
  return static_cast<float>(d);
}

template <F32Kernel K>
float similarity(const float* a, const float* b, int64_t n) {
  return 1.0f - one<K>(a, b, n);
}

template <void (*K)(simsimd_i8_t const*, simsimd_i8_t const*, simsimd_size_t, simsimd_distance_t*)>
int32_t one_i8(const int8_t* a, const int8_t* b, int64_t n) {
  simsimd_distance_t d;
  K(a, b, static_cast<simsimd_size_t>(n), &d);
  return static_cast<int32_t>(d);
}

// SimSIMD's binary kernels count bytes (b8): the n words are n * 8 of them.
template <void (*K)(simsimd_b8_t const*, simsimd_b8_t const*, simsimd_size_t, simsimd_distance_t*)>
uint64_t hamming_b8(const uint64_t* a, const uint64_t* b, int64_t n) {
  simsimd_distance_t d;
  K(reinterpret_cast<simsimd_b8_t const*>(a), reinterpret_cast<simsimd_b8_t const*>(b),
    static_cast<simsimd_size_t>(n) * 8, &d);
  return static_cast<uint64_t>(d);
}

template <F32Kernel K>
void per_row(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  for (int64_t r = 0; r < rows; ++r) out[r] = one<K>(x + r * cols, q, cols);
}

}  // namespace

std::span<const RowsFn> simsimd_rows_functions() {
  static const RowsFn table[] = {
      {"dot_f32", "simsimd.skylake", erase(&one<simsimd_dot_f32_skylake>), "avx512", ""},
      {"dot_f32", "simsimd.haswell", erase(&one<simsimd_dot_f32_haswell>), "avx2_fma", ""},
      {"l2sq_f32", "simsimd.skylake", erase(&one<simsimd_l2sq_f32_skylake>), "avx512", ""},
      {"l2sq_f32", "simsimd.haswell", erase(&one<simsimd_l2sq_f32_haswell>), "avx2_fma", ""},
      {"cos_f32", "simsimd.skylake", erase(&similarity<simsimd_cos_f32_skylake>), "avx512", "1 - distance"},
      {"cos_f32", "simsimd.haswell", erase(&similarity<simsimd_cos_f32_haswell>), "avx2_fma", "1 - distance"},
      {"dot_i8", "simsimd.ice", erase(&one_i8<simsimd_dot_i8_ice>), "avx512_vnni", "vpdpwssd"},
      {"dot_i8", "simsimd.haswell", erase(&one_i8<simsimd_dot_i8_haswell>), "avx2_fma", ""},
      {"hamming_u64", "simsimd.ice", erase(&hamming_b8<simsimd_hamming_b8_ice>), "avx512_vpopcnt", "vpopcntq"},
      {"hamming_u64", "simsimd.haswell", erase(&hamming_b8<simsimd_hamming_b8_haswell>), "avx2_fma", "popcnt"},
      {"hamming_u64", "simsimd.serial", erase(&hamming_b8<simsimd_hamming_b8_serial>), "", "byte table"},
      {"query_dot_f32", "simsimd.skylake", erase(&per_row<simsimd_dot_f32_skylake>), "avx512", "one call per row"},
      {"query_l2sq_f32", "simsimd.skylake", erase(&per_row<simsimd_l2sq_f32_skylake>), "avx512", "one call per row"},
  };
  return table;
}

}  // namespace simdgen_bench_rows
