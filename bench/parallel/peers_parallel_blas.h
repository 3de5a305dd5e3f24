// SPDX-License-Identifier: Apache-2.0
// OpenBLAS and BLIS at N threads for bench_parallel.cpp: Debian's pthread builds (libopenblas0-pthread,
// libblis4-pthread) opened by path with dlopen, beside the serial builds that the single-thread
// benchmarks link (the two builds of a library export the same names).
#pragma once
#include <cstdint>

namespace simdgen_bench {

// C = A B, row-major f32 (m x k times k x n), on `threads` threads; false if the library is absent.
bool openblasSgemm(int threads, const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);
bool blisSgemm(int threads, const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);

}  // namespace simdgen_bench
