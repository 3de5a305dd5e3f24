#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/rowstats/vendored cross-built for aarch64 (static) and run under qemu with SVE at 256,
# 512 and 2048 bits and on a NEON-only cortex-a72: the dispatcher must choose the SVE variants where
# SVE exists and the NEON ones elsewhere (f32 kernels have no sve2 or dotprod variant: each would
# equal the plainer one), SIMDGEN_VARIANT=scalar the scalar ones.
source "$(dirname "$0")/lib.sh"
start
v=$example/vendored
for tool in aarch64-linux-gnu-g++ qemu-aarch64; do command -v $tool > /dev/null || fail "$tool not found"; done
aarch64-linux-gnu-g++ -O2 -static -Wall -Wextra -Werror -I"$v" "$example/rowstats.cpp" "$v"/*.cpp -o "$WORK/rowstats"
# Probe: the SVE vector length qemu really gives the process (bytes), 0 without SVE.
cat > "$WORK/sve_vl.cpp" <<'CPP'
#include <sys/prctl.h>
#include <cstdio>
int main() { int vl = prctl(PR_SVE_GET_VL); std::printf("%d\n", vl < 0 ? 0 : (vl & PR_SVE_VL_LEN_MASK)); }
CPP
aarch64-linux-gnu-g++ -O2 -static "$WORK/sve_vl.cpp" -o "$WORK/sve_vl"
for cpu in max,sve-default-vector-length=32 max,sve-default-vector-length=64 \
    max,sve-default-vector-length=256 cortex-a72; do
  run=(qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu "$cpu")
  want=0
  [[ $cpu == *=* ]] && want=${cpu##*=}
  got=$("${run[@]}" "$WORK/sve_vl")
  [ "$got" = "$want" ] || fail "-cpu $cpu: SVE vector length is $got bytes, expected $want"
  check_rowstats "aarch64 -cpu $cpu (SVE $got bytes)" "${run[@]}" "$WORK/rowstats"
  isa=neon
  [ "$want" != 0 ] && isa=sve
  grep -qx "variants: row_sum_f32=$isa row_max_f32=$isa col_max_f32=$isa" "$WORK/err.txt" ||
    fail "-cpu $cpu: expected the $isa variants, got: $(cat "$WORK/err.txt")"
  SIMDGEN_VARIANT=scalar check_rowstats "aarch64 -cpu $cpu, SIMDGEN_VARIANT=scalar" "${run[@]}" "$WORK/rowstats"
  grep -qx "variants: row_sum_f32=scalar row_max_f32=scalar col_max_f32=scalar" "$WORK/err.txt" ||
    fail "-cpu $cpu, SIMDGEN_VARIANT=scalar: got $(cat "$WORK/err.txt")"
done
