#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds ab.cpp against the AVX2 variants of generated/ at OLD_REV (default: before the piecewise
# tail stores; 96fafdd: before the overlapped tails) and at the work tree, then runs it pinned to CPU ${CPU:-1}.
# Usage: bench/tail_store_ab/run.sh [OLD_REV] [WORK_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
old_rev=${1:-609bf7a}
work=${2:-/tmp/simdgen_tail_store_ab}
mkdir -p "$work"
kernels="times_two_n map_axpby_fma_f32 map_u8_to_f32_fma map_norm_floor_f32 map_select_f64 map_i64_u64_rows
  map_absdiff_i16 map_blend_u8 map_f32_to_u8_nearest matmul_f32"
objs=()
for k in $kernels; do
  git -C "$repo" show "$old_rev:generated/$k.cpp" > "$work/old_$k.cpp"
  g++-12 -O2 -I"$repo/generated" -c "$work/old_$k.cpp" -o "$work/old_$k.o"
  g++-12 -O2 -I"$repo/generated" -c "$repo/generated/$k.cpp" -o "$work/new_$k.o"
  renames=()
  for s in $(nm --defined-only -g "$work/old_$k.o" | awk '{print $3}'); do renames+=(--redefine-sym "$s=old_$s"); done
  objcopy "${renames[@]}" "$work/old_$k.o"
  objs+=("$work/old_$k.o" "$work/new_$k.o")
done
g++-12 -O2 "$here/ab.cpp" "${objs[@]}" -o "$work/ab"
taskset -c "${CPU:-1}" "$work/ab"
