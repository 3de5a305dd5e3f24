// SPDX-License-Identifier: Apache-2.0
// The argmax loop a user would write by hand, left to the compiler.
// Built once per compiler with -DPEER_SUFFIX=<suffix> (distinct symbol names,
// so both builds link into one binary). Like peers_plain.cpp it uses no
// templates or library calls: this file is compiled with -march=native, and
// an inline (COMDAT) function emitted here could be picked by the linker for
// the rest of the binary.
#include "peers_arg_plain.h"

#include "peer_suffix.h"  // PEER(name): name_<build>

namespace simdgen_bench {

// Strict `>`: ties keep the first index (NumPy's argmax). For floats a NaN
// never compares greater, so NaNs after the first element are skipped (the
// benchmark data contain none).
void PEER(plain_argmax_i32)(const int32_t* a, int64_t n, int32_t* value,
                            int64_t* index) {
  if (n <= 0) {
    *value = INT32_MIN;
    *index = -1;
    return;
  }
  int32_t best = a[0];
  int64_t idx = 0;
  for (int64_t i = 1; i < n; ++i) {
    if (a[i] > best) {
      best = a[i];
      idx = i;
    }
  }
  *value = best;
  *index = idx;
}

void PEER(plain_argmax_f32)(const float* a, int64_t n, float* value,
                            int64_t* index) {
  if (n <= 0) {
    *value = -__builtin_inff();
    *index = -1;
    return;
  }
  float best = a[0];
  int64_t idx = 0;
  for (int64_t i = 1; i < n; ++i) {
    if (a[i] > best) {
      best = a[i];
      idx = i;
    }
  }
  *value = best;
  *index = idx;
}

}  // namespace simdgen_bench
