#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Executed instructions of one 48 x 64 x 256 i8 x i8 matmul call per Arm variant under qemu
# (the marker calls' own instructions excluded), from a generated matmul_i8_i32.cpp:
#   bench/arm_icount/matmul_i8_icount.sh [generated/matmul_i8_i32.cpp]
# An older file for comparison: git show REV:generated/matmul_i8_i32.cpp > /tmp/old.cpp.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(realpath "${1:-$here/../../generated/matmul_i8_i32.cpp}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
aarch64-linux-gnu-g++ -O2 -static -I"$here/../../generated" "$here/matmul_i8_icount.cpp" "$src" -o "$dir/icount"
count() {  # variant, qemu cpu: the Trace lines (one per instruction) between the two markers
  qemu-aarch64 -singlestep -d exec,nochain -D /dev/stdout -cpu "$2" "$dir/icount" "$1" |
    awk '/^Trace/ { if ($NF == "_Z11icount_marki") { if (!in_mark) marks++; in_mark = 1 } else { in_mark = 0; if (marks == 1) n++ } } END { print n }'
}
echo "variant,vl_bits,instructions"
for bytes in 16 32 64; do echo "sve,$((bytes * 8)),$(count sve "max,sve-default-vector-length=$bytes")"; done
echo "neon_dotprod,128,$(count neon_dotprod max,sve=off)"
echo "neon,128,$(count neon max,sve=off)"
