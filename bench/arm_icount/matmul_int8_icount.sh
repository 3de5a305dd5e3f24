#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Executed instructions of one 48 x 64 x 256 int8 matmul call per Arm variant under qemu (the
# marker calls' own instructions excluded), from generated matmul_i8_i32.cpp and matmul_u8i8_i32.cpp:
#   bench/arm_icount/matmul_int8_icount.sh [I8_CPP [U8I8_CPP]]
# Older files for comparison: git show REV:generated/matmul_i8_i32.cpp > /tmp/old.cpp (a variant
# an older file does not have prints an empty count).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../../generated"
i8=$(realpath "${1:-$gen/matmul_i8_i32.cpp}")
u8i8=$(realpath "${2:-$gen/matmul_u8i8_i32.cpp}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
aarch64-linux-gnu-g++ -O2 -static -I"$gen" "$here/matmul_int8_icount.cpp" "$i8" "$u8i8" -o "$dir/icount"
count() {  # kernel:variant, qemu cpu: the Trace lines (one per instruction) between the two markers
  { qemu-aarch64 -singlestep -d exec,nochain -D /dev/stdout -cpu "$2" "$dir/icount" "$1" || true; } |
    awk '/^Trace/ { if ($NF == "_Z11icount_marki") { if (!in_mark) marks++; in_mark = 1 } else { in_mark = 0; if (marks == 1) n++ } } END { print n }'
}
echo "kernel,variant,vl_bits,instructions"
for kernel in i8 u8i8; do
  variants="neon_dotprod neon"
  [ "$kernel" = u8i8 ] && variants="sve_i8mm neon_i8mm neon_dotprod neon"
  for bytes in 16 32 64; do echo "$kernel,sve,$((bytes * 8)),$(count "$kernel:sve" "max,sve-default-vector-length=$bytes")"; done
  [ "$kernel" = u8i8 ] && for bytes in 16 32 64; do echo "$kernel,sve_i8mm,$((bytes * 8)),$(count "$kernel:sve_i8mm" "max,sve-default-vector-length=$bytes")"; done
  for v in $variants; do [ "$v" = sve_i8mm ] || echo "$kernel,$v,128,$(count "$kernel:$v" max,sve=off)"; done
done
