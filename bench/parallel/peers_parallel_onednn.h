// SPDX-License-Identifier: Apache-2.0
// oneDNN 2.6 (Debian's libdnnl-dev, OpenMP runtime) on the parallel benchmark's four cases, at the
// thread count OpenMP is given: the matmul primitive (row-major f32), the softmax primitive along
// rows, the reduction primitive (row sums) and a reorder from row-major to column-major (a
// transpose). Primitives are created before the timing; each peer's output is checked against a
// scalar reference by bench_parallel.cpp before it is timed.
#pragma once
#include <cstdint>
#include <functional>

namespace simdgen_bench {

// fn() runs the primitive once on the arrays given here (which must outlive fn).
std::function<void()> onednnMatmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);
std::function<void()> onednnSoftmax(const float* x, float* y, int64_t rows, int64_t cols);
std::function<void()> onednnRowSums(const float* x, float* out, int64_t rows, int64_t cols);
std::function<void()> onednnTranspose(const float* x, float* out, int64_t rows, int64_t cols);

}  // namespace simdgen_bench
