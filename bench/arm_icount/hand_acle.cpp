// SPDX-License-Identifier: Apache-2.0
//
// Hand-written ACLE loops of B[i] = A[i] * 2 (f32), the references of the instruction-count
// issue: what an engineer writes without simdgen. Compiled like the generated files (-O2, no
// -march; SVE through a function-level target attribute).
#include "hand_acle.h"

#include <arm_neon.h>
#include <arm_sve.h>

// SVE, one loop governed by whilelt (the textbook ACLE loop: the predicate is recomputed at
// the top and the loop condition is a plain compare).
__attribute__((target("+sve"))) void acle_sve_predicated(const float* A, int64_t n, float* B) {
  for (int64_t i = 0; i < n; i += (int64_t)svcntw()) {
    svbool_t pg = svwhilelt_b32_s64(i, n);
    svst1_f32(pg, B + i, svmul_n_f32_x(pg, svld1_f32(pg, A + i), 2.0f));
  }
}

// SVE, whole vectors under an all-true predicate, then a scalar cleanup loop.
__attribute__((target("+sve"))) void acle_sve_cleanup(const float* A, int64_t n, float* B) {
  const int64_t vl = (int64_t)svcntw();
  const svbool_t all = svptrue_b32();
  int64_t i = 0;
  for (; i + vl <= n; i += vl) svst1_f32(all, B + i, svmul_n_f32_x(all, svld1_f32(all, A + i), 2.0f));
  for (; i < n; ++i) B[i] = A[i] * 2.0f;
}

// NEON, whole 128-bit vectors, then a scalar cleanup loop.
void acle_neon_cleanup(const float* A, int64_t n, float* B) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(B + i, vmulq_n_f32(vld1q_f32(A + i), 2.0f));
  for (; i < n; ++i) B[i] = A[i] * 2.0f;
}
