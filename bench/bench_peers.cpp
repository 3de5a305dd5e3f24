// SPDX-License-Identifier: Apache-2.0
// Queues every peer implementation: plain loops per compiler, Highway (best
// target and AVX2) and Eigen. Impl names start with the library ("plain.",
// "hwy.", "eigen") because make_table.py picks its baselines by prefix.
#include "harness.h"
#include "peers_eigen.h"
#include "peers_hand.h"
#include "peers_highway.h"
#include "peers_plain.h"

namespace simdgen_bench {

void queue_peers() {
  // Plain loops. -ffast-math only changes the f32 kernels (integer addition
  // is already associative), so the i8 kernel is timed for the default flags.
  add_i8_sum("rowsum_i8", "plain.clang19", plain_rowsum_i8_clang19);
  add_i8_sum("rowsum_i8", "plain.gcc12", plain_rowsum_i8_gcc12);
#define SIMDGEN_QUEUE_F32(suffix)                                     \
  add_f32("rowsum_f32", Op::kSum, "plain." #suffix,                   \
          plain_rowsum_f32_##suffix);                                 \
  add_f32("rowmax_f32", Op::kMax, "plain." #suffix,                   \
          plain_rowmax_f32_##suffix);
  SIMDGEN_PLAIN_PEER_BUILDS(SIMDGEN_QUEUE_F32)
#undef SIMDGEN_QUEUE_F32

  // Highway: the dispatched best target, then the AVX2 target of the same
  // code for a like-for-like comparison with the generated _avx2 variants.
  add_i8_sum("rowsum_i8", "hwy.sad", hwy_rowsum_i8_sad);
  add_i8_sum("rowsum_i8", "hwy.madd", hwy_rowsum_i8_madd);
  add_f32("rowsum_f32", Op::kSum, "hwy", hwy_rowsum_f32);
  add_f32("rowmax_f32", Op::kMax, "hwy", hwy_rowmax_f32);
  const HighwayAvx2 avx2 = hwy_avx2_kernels();
  if (highway_has_avx2() && avx2.rowsum_i8_sad) {
    add_i8_sum("rowsum_i8", "hwy.sad.avx2", avx2.rowsum_i8_sad);
    add_i8_sum("rowsum_i8", "hwy.madd.avx2", avx2.rowsum_i8_madd);
    add_f32("rowsum_f32", Op::kSum, "hwy.avx2", avx2.rowsum_f32);
    add_f32("rowmax_f32", Op::kMax, "hwy.avx2", avx2.rowmax_f32);
  }
  benchmark::AddCustomContext("highway_best_target", highway_best_target_name());

  // Hand-written intrinsics (the expert baseline), where the CPU has them.
  if (hand_has_avx512_vnni()) {
    add_i8_sum("rowsum_i8", "hand.avx512_vnni", hand_rowsum_i8_avx512_vnni);
    add_f32("rowsum_f32", Op::kSum, "hand.avx512", hand_rowsum_f32_avx512);
  }
  if (hand_has_avx2()) add_f32("rowsum_f32", Op::kSum, "hand.avx2", hand_rowsum_f32_avx2);

  add_i8_sum("rowsum_i8", "eigen", eigen_rowsum_i8);
  add_f32("rowsum_f32", Op::kSum, "eigen", eigen_rowsum_f32);
  add_f32("rowmax_f32", Op::kMax, "eigen", eigen_rowmax_f32);
}

}  // namespace simdgen_bench
