// SPDX-License-Identifier: Apache-2.0
#include <cblas.h>

#include "peers_matvec.h"

void matvec_openblas(const float* w, const float* x, int64_t rows, int64_t cols, int64_t ld, float* y) {
  cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<blasint>(rows), static_cast<blasint>(cols), 1.0f, w, static_cast<blasint>(ld), x, 1,
              0.0f, y, 1);
}
