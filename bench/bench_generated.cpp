// SPDX-License-Identifier: Apache-2.0
// Queues the simdgen-generated kernels: each strategy's dispatcher and each
// ISA variant by name, so strategies and ISAs can be read side by side.
// The variant lists below are the only place that names generated symbols;
// adjust them if the generator's set of variants per kernel changes.
#include "harness.h"

#include "rowmax_f32.h"
#include "rowmax_f32_inner_parallel.h"
#include "rowsum_f32.h"
#include "rowsum_i8.h"
#include "rowsum_i8_inner_parallel.h"
#include "rowsum_i8_inner_reduction.h"
#include "seed_rowsum_i8_384x512.h"

namespace simdgen_bench {
namespace {

// A variant is timed only where it can run; the generated dispatcher makes
// the same decision at run time.
bool cpu_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
bool cpu_avx512_vnni() { return cpu_avx512() && __builtin_cpu_supports("avx512vnni"); }
bool cpu_avx2() { return __builtin_cpu_supports("avx2"); }

const std::vector<Shape> kSeedShape = {{384, 512}};

}  // namespace

// NAME: generated symbol; LABEL: impl name in the results; VNNI: the
// _avx512_vnni variant, or nullptr for kernels generated without one.
#define SIMDGEN_QUEUE_I8(NAME, LABEL, SHAPES, VNNI)                                  \
  add_i8_sum("rowsum_i8", LABEL, NAME, SHAPES);                                      \
  if (RowKernelI8 vnni = VNNI; vnni && cpu_avx512_vnni())                           \
    add_i8_sum("rowsum_i8", LABEL ".avx512_vnni", vnni, SHAPES);                     \
  if (cpu_avx512()) add_i8_sum("rowsum_i8", LABEL ".avx512", NAME##_avx512, SHAPES); \
  if (cpu_avx2()) add_i8_sum("rowsum_i8", LABEL ".avx2", NAME##_avx2, SHAPES);       \
  add_i8_sum("rowsum_i8", LABEL ".scalar", NAME##_scalar, SHAPES);

#define SIMDGEN_QUEUE_F32(NAME, OP)                                                 \
  add_f32(#NAME, OP, "simdgen", NAME);                                              \
  if (cpu_avx512()) add_f32(#NAME, OP, "simdgen.avx512", NAME##_avx512);            \
  if (cpu_avx2()) add_f32(#NAME, OP, "simdgen.avx2", NAME##_avx2);                  \
  add_f32(#NAME, OP, "simdgen.scalar", NAME##_scalar);

// The static specialisation ignores the runtime extents: wrap it in the
// common row-kernel signature (it is only queued at 384x512, stride 512).
#define SIMDGEN_SEED(FN) \
  +[](const int8_t* in, int64_t, int64_t, int64_t, int32_t* out) { FN(in, out); }

void queue_generated_kernels() {
  SIMDGEN_QUEUE_I8(rowsum_i8, "simdgen.vector_accumulator", kDefaultShapes,
                   rowsum_i8_avx512_vnni)
  // Lane = row: the generator emits no VNNI variant for this strategy.
  SIMDGEN_QUEUE_I8(rowsum_i8_inner_parallel, "simdgen.inner_parallel", kDefaultShapes,
                   nullptr)
  SIMDGEN_QUEUE_I8(rowsum_i8_inner_reduction, "simdgen.inner_reduction", kDefaultShapes,
                   rowsum_i8_inner_reduction_avx512_vnni)

  add_i8_sum("rowsum_i8", "simdgen.seed_384x512",
             SIMDGEN_SEED(seed_rowsum_i8_384x512), kSeedShape);
  if (cpu_avx512_vnni())
    add_i8_sum("rowsum_i8", "simdgen.seed_384x512.avx512_vnni",
               SIMDGEN_SEED(seed_rowsum_i8_384x512_avx512_vnni), kSeedShape);
  if (cpu_avx512())
    add_i8_sum("rowsum_i8", "simdgen.seed_384x512.avx512",
               SIMDGEN_SEED(seed_rowsum_i8_384x512_avx512), kSeedShape);
  if (cpu_avx2())
    add_i8_sum("rowsum_i8", "simdgen.seed_384x512.avx2",
               SIMDGEN_SEED(seed_rowsum_i8_384x512_avx2), kSeedShape);
  add_i8_sum("rowsum_i8", "simdgen.seed_384x512.scalar",
             SIMDGEN_SEED(seed_rowsum_i8_384x512_scalar), kSeedShape);

  SIMDGEN_QUEUE_F32(rowsum_f32, Op::kSum)
  SIMDGEN_QUEUE_F32(rowmax_f32, Op::kMax)
  // Lane = row, columns read at the row stride (32-bit lanes: scalar loads inserted into vectors).
  SIMDGEN_QUEUE_F32(rowmax_f32_inner_parallel, Op::kMax)
}

}  // namespace simdgen_bench
