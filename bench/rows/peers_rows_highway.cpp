// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3's hwy/contrib/dot (Dot::Compute, no size assumptions), static dispatch: compiled
// -O3 -march=native, so HWY_NAMESPACE is the best target the flags allow (highway_target() names
// it). Its contrib has the dot product only: cosine is three calls, the query one call per row;
// there is no squared L2, softmax or normalisation to compare.
#include <hwy/highway.h>
#include <hwy/contrib/dot/dot-inl.h>

#include <cmath>

#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {
namespace hn = hwy::HWY_NAMESPACE;

float dot(const float* a, const float* b, int64_t n) {
  const hn::ScalableTag<float> d;
  return hn::Dot::Compute<0>(d, a, b, static_cast<size_t>(n));
}

float cosine(const float* a, const float* b, int64_t n) { return dot(a, b, n) / std::sqrt(dot(a, a, n) * dot(b, b, n)); }

void query_dot(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  for (int64_t r = 0; r < rows; ++r) out[r] = dot(x + r * cols, q, cols);
}

}  // namespace

std::span<const RowsFn> highway_rows_functions() {
  static const RowsFn table[] = {
      {"dot_f32", "hwy", erase(&dot), "", "hwy/contrib/dot Dot::Compute<0>"},
      {"cos_f32", "hwy", erase(&cosine), "", "3 Dot::Compute calls"},
      {"query_dot_f32", "hwy", erase(&query_dot), "", "Dot::Compute per row"},
  };
  return table;
}

const char* highway_target() { return hwy::TargetName(HWY_STATIC_TARGET); }

}  // namespace simdgen_bench_rows
