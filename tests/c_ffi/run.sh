#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generated headers used from C: every header in GENERATED_DIR compiles as strict C11, and
# c_ffi_test.c (C) links against three generated kernels (C++), with the C compiler alone (no C++
# runtime), and runs, once per variant the headers declare, by suffix and by spec spelling
# (SIMDGEN_VARIANT forces it where the CPU has it; the dispatcher falls back elsewhere, reporting
# it once), and with a bogus name.
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
# Linked by the C compiler alone, without the C++ runtime: the generated objects need only the C
# library, libm and libgcc (tests/compile/cxx_runtime.sh checks every generated file).
"$cc" "${link[@]}" "${objs[@]}" -lm -o "$work/c_ffi_test"

run() { "${runner[@]}" "$work/c_ffi_test" "$@"; }
run --variants > "$work/variants.txt"
kernels="rowsum_i8 argmax_f32 map_axpy_f32_rows"
best=$(SIMDGEN_VARIANT= run) || fail "the kernels differ from the C loops"
echo "ok default: $best"
ran() { tr ' ' '\n' <<< "$2" | sed -n "s/^$1=//p"; }  # ran KERNEL OUTPUT: the variant KERNEL used
# The spec spelling of a suffix: avx2_avx_vnni_fma -> avx2+avx_vnni+fma.
spelled() { sed -E 's/_(avx_vnni|vnni|fma|dotprod)/+\1/g' <<< "$1"; }

# SIMDGEN_VARIANT=NAME (a suffix, its spelling, or a bogus name): each kernel with that variant
# runs it if the CPU can, every other kernel its best; one report on stderr exactly when the name
# is unknown or the CPU cannot run it.
for v in $(cut -d' ' -f2 "$work/variants.txt" | sort -u) bogus; do
  for name in $(printf '%s\n' "$v" "$(spelled "$v")" | sort -u); do
    out=$(SIMDGEN_VARIANT=$name run 2> "$work/err.txt") || { cat "$work/err.txt" >&2; fail "SIMDGEN_VARIANT=$name: the kernels differ from the C loops"; }
    unsupported=0
    for k in $kernels; do
      got=$(ran $k "$out")
      if grep -qx "$k $v" "$work/variants.txt" && [ "$got" != "$v" ]; then unsupported=1; fi
      [ "$got" = "$v" ] || [ "$got" = "$(ran $k "$best")" ] || fail "SIMDGEN_VARIANT=$name: $k ran $got"
    done
    reports=$(grep -c '^simdgen: SIMDGEN_VARIANT=' "$work/err.txt" || true)
    if [ $v = bogus ]; then
      [ "$reports" = 1 ] && grep -q "SIMDGEN_VARIANT=bogus: not a variant name" "$work/err.txt" ||
        { cat "$work/err.txt" >&2; fail "SIMDGEN_VARIANT=bogus: expected one report"; }
    elif [ $unsupported = 1 ]; then
      [ "$reports" = 1 ] && grep -q "SIMDGEN_VARIANT=$name: this CPU does not support it" "$work/err.txt" ||
        { cat "$work/err.txt" >&2; fail "SIMDGEN_VARIANT=$name: expected one report of an unsupported variant"; }
    else
      [ "$reports" = 0 ] || { cat "$work/err.txt" >&2; fail "SIMDGEN_VARIANT=$name: unexpected report"; }
    fi
    echo "ok SIMDGEN_VARIANT=$name: $out $(cat "$work/err.txt")"
  done
done
out=$(SIMDGEN_VARIANT=scalar run)
[ "$out" = "rowsum_i8=scalar argmax_f32=scalar map_axpy_f32_rows=scalar" ] || fail "SIMDGEN_VARIANT=scalar ran $out"
