#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SIMDGEN_SCRATCH_ON_HEAP: generated kernels with a packed panel, built with it, run every x86
# variant on a thread with a 64 KiB stack against scalar references (scratch_on_heap.cpp); built
# without it, the same program must fail there (the panel overflows that stack: past the guard
# page it overwrites other memory, and the results come out wrong), which shows the test reaches
# the case the option exists for.
source "$(dirname "$0")/lib.sh"
start
g=$SIMDGEN_SOURCE_DIR/generated
src=("$here/scratch_on_heap.cpp" "$g/matmul_f32.cpp" "$g/matmul_u8i8_i32.cpp")
g++-12 -std=c++17 -O1 -Wall -Wextra -Werror -DSIMDGEN_SCRATCH_ON_HEAP -I"$g" "${src[@]}" -pthread -o "$WORK/heap" ||
  fail "the kernels do not build with SIMDGEN_SCRATCH_ON_HEAP"
# Each kernel takes the names it has (matmul_f32: avx2_fma; matmul_u8i8_i32: avx512_vnni, avx2, ...).
for variant in avx512_vnni avx512 avx2_avx_vnni avx2_fma avx2 scalar; do
  SIMDGEN_VARIANT=$variant "$WORK/heap" || fail "SIMDGEN_SCRATCH_ON_HEAP, SIMDGEN_VARIANT=$variant: wrong results or a crash"
done
g++-12 -std=c++17 -O1 -I"$g" "${src[@]}" -pthread -o "$WORK/stack" || fail "the kernels do not build"
if SIMDGEN_VARIANT=avx512 "$WORK/stack" > /dev/null 2>&1; then
  fail "the panel on the stack did not break on a 64 KiB stack: this test no longer checks the heap option"
fi
echo "ok the stack build dies on a 64 KiB stack, the SIMDGEN_SCRATCH_ON_HEAP build is right on it"
