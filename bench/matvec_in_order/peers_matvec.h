// SPDX-License-Identifier: Apache-2.0
// y = W x (W rows x cols, row-major, rows ld apart): the peers of bench_matvec_in_order.cpp.
#pragma once
#include <cstdint>

// llama2.c's matmul loop (`val += w[i * n + j] * x[j]`), built by clang++-19 and g++-12 with
// -O3 -march=native -ffp-contract=off: the bits the in-order kernel reproduces (peers_matvec_plain.cpp).
void matvec_plain_clang19(const float* w, const float* x, int64_t rows, int64_t cols, int64_t ld, float* y);
void matvec_plain_gcc12(const float* w, const float* x, int64_t rows, int64_t cols, int64_t ld, float* y);
#ifdef SIMDGEN_BENCH_HAVE_OPENBLAS
// The serial OpenBLAS's cblas_sgemv: reassociated sums with FMA (other bits), the fastest peer.
void matvec_openblas(const float* w, const float* x, int64_t rows, int64_t cols, int64_t ld, float* y);
#endif
