// SPDX-License-Identifier: Apache-2.0
// The serial OpenBLAS (Debian's libopenblas-serial-dev): cblas_sdot, cosine as three cblas_sdot
// calls (sdot(a, a) rather than snrm2, whose overflow-safe scaling costs more), and the query as
// one cblas_sgemv (row-major, no transpose). BLAS has no squared distance or row kernels. Its
// cblas.h comes from the openblas-serial include directory (CMakeLists.txt).
#include <cblas.h>

#include <cmath>
#include <string>

#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {

float dot(const float* a, const float* b, int64_t n) { return cblas_sdot(static_cast<blasint>(n), a, 1, b, 1); }

float cosine(const float* a, const float* b, int64_t n) { return dot(a, b, n) / std::sqrt(dot(a, a, n) * dot(b, b, n)); }

void query_dot(const float* x, const float* q, int64_t rows, int64_t cols, float* out) {
  cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<blasint>(rows), static_cast<blasint>(cols), 1.0f, x,
              static_cast<blasint>(cols), q, 1, 0.0f, out, 1);
}

}  // namespace

std::span<const RowsFn> openblas_rows_functions() {
  static const RowsFn table[] = {
      {"dot_f32", "openblas", erase(&dot), "", "cblas_sdot"},
      {"cos_f32", "openblas", erase(&cosine), "", "3 cblas_sdot calls"},
      {"query_dot_f32", "openblas", erase(&query_dot), "", "cblas_sgemv"},
  };
  return table;
}

// The serial build runs one thread anyway; the call makes it explicit should a threaded
// libopenblas.so.0 be selected through Debian's alternatives.
std::string openblas_config() {
  openblas_set_num_threads(1);
  return std::string(openblas_get_config()) + ", core " + openblas_get_corename() + ", " +
         std::to_string(openblas_get_num_threads()) + " thread(s)";
}

}  // namespace simdgen_bench_rows
