#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generated headers used from C: every header in GENERATED_DIR compiles as strict C11, and
# c_ffi_test.c (C) links against three generated kernels (C++) and runs, once per variant the
# headers declare (SIMDGEN_VARIANT forces it where the CPU has it; the dispatcher falls back
# elsewhere), then with SIMDGEN_VARIANT=scalar, which every CPU runs.
# Usage: run.sh WORK GENERATED_DIR CC CXX [LINK_FLAG] [-- RUNNER...] (RUNNER: e.g. qemu-aarch64 ...)
set -euo pipefail
work=$1 gen=$2 cc=$3 cxx=$4
shift 4
link=()
if [ $# -gt 0 ] && [ "$1" != -- ]; then link=("$1"); shift; fi
[ "${1:-}" = -- ] && shift
runner=("$@")
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cflags=(-std=c11 -O2 -pedantic -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Werror)

# Every generated header, as C: C linkage, (void) parameter lists, C types only.
for h in "$gen"/*.h; do echo "#include \"$(basename "$h")\""; done > "$work/all_headers.c"
"$cc" "${cflags[@]}" -I"$gen" -c "$work/all_headers.c" -o "$work/all_headers.o"

"$cc" "${cflags[@]}" -I"$gen" -c "$here/c_ffi_test.c" -o "$work/c_ffi_test.o"
objs=("$work/c_ffi_test.o")
for k in rowsum_i8 argmax_f32 map_axpy_f32_rows; do
  "$cxx" -std=c++17 -O2 -Wall -Wextra -Werror -I"$gen" -c "$gen/$k.cpp" -o "$work/$k.o"
  objs+=("$work/$k.o")
done
# Linked by the C++ driver, as CMake links a C program with C++ objects (the dispatcher's
# thread-safe static needs the C++ runtime).
"$cxx" "${link[@]}" "${objs[@]}" -lm -o "$work/c_ffi_test"

run() { "${runner[@]}" "$work/c_ffi_test" "$@"; }
variants=$(run --variants | sort -u)
[ -n "$variants" ] || fail "no variants listed"
for v in "" $variants; do
  out=$(SIMDGEN_VARIANT=$v run) || fail "SIMDGEN_VARIANT=$v: the kernels differ from the C loops"
  echo "ok SIMDGEN_VARIANT=$v: $out"
done
out=$(SIMDGEN_VARIANT=scalar run)
[ "$out" = "rowsum_i8=scalar argmax_f32=scalar map_axpy_f32_rows=scalar" ] || fail "SIMDGEN_VARIANT=scalar ran $out"
