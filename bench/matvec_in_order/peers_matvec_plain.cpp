// SPDX-License-Identifier: Apache-2.0
// The plain loop, compiled once per compiler (PEER_SUFFIX names the copy).
#include "peers_matvec.h"

#define PEER_NAME2(a, b) a##_##b
#define PEER_NAME(a, b) PEER_NAME2(a, b)

void PEER_NAME(matvec_plain, PEER_SUFFIX)(const float* w, const float* x, int64_t rows, int64_t cols, int64_t ld, float* y) {
  for (int64_t i = 0; i < rows; i++) {
    float val = 0.0f;
    for (int64_t j = 0; j < cols; j++) val += w[i * ld + j] * x[j];
    y[i] = val;
  }
}
