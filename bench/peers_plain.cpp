// SPDX-License-Identifier: Apache-2.0
// The loops a user would write by hand, left to the compiler's vectoriser.
// Built once per compiler/flag set with -DPEER_SUFFIX=<suffix>, which gives
// each build distinct symbol names so all can be linked into one binary.
// Uses no templates or library calls: this file is compiled with
// -march=native, and any inline (COMDAT) function emitted here could be
// picked by the linker for the rest of the binary.
#include "peers_plain.h"

#include "peer_suffix.h"  // PEER(name): name_<build>

namespace simdgen_bench {

void PEER(plain_rowsum_i8)(const int8_t* input, int64_t rows, int64_t cols,
                           int64_t stride, int32_t* out) {
  for (int64_t i = 0; i < rows; ++i) {
    const int8_t* row = input + i * stride;
    int32_t acc = 0;
    for (int64_t j = 0; j < cols; ++j) acc += row[j];
    out[i] = acc;
  }
}

void PEER(plain_rowsum_f32)(const float* input, int64_t rows, int64_t cols,
                            int64_t stride, float* out) {
  for (int64_t i = 0; i < rows; ++i) {
    const float* row = input + i * stride;
    float acc = 0.0f;
    for (int64_t j = 0; j < cols; ++j) acc += row[j];
    out[i] = acc;
  }
}

// `x > acc ? x : acc` skips NaN elements (the comparison is false), which is
// the semantics of the generated rowmax_f32.
void PEER(plain_rowmax_f32)(const float* input, int64_t rows, int64_t cols,
                            int64_t stride, float* out) {
  for (int64_t i = 0; i < rows; ++i) {
    const float* row = input + i * stride;
    float acc = -__builtin_inff();
    for (int64_t j = 0; j < cols; ++j) acc = row[j] > acc ? row[j] : acc;
    out[i] = acc;
  }
}

}  // namespace simdgen_bench
