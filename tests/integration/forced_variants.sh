#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SIMDGEN_VARIANT=<suffix> forces each variant this CPU supports (per /proc/cpuinfo), checked via
# NAME_variant() (rowstats prints it to stderr); every forced run must print identical results.
# The spec spelling (avx2+fma) works as the suffix (avx2_fma) does. A variant the CPU lacks, or an
# unknown name, falls back to the best one and is reported once on stderr; a known name that no
# kernel here has (avx512_vnni: the kernels are f32) falls back silently.
# Usage: forced_variants.sh ROWSTATS KERNEL_HEADER_DIR
source "$(dirname "$0")/lib.sh"
start
exe=$1 headers=$2
kernels="row_sum_f32 row_max_f32 col_max_f32"
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "

# The CPU flags a variant suffix needs ("avx512_vnni" -> avx512f avx512bw avx512dq avx512vl avx512_vnni).
needs() {
  local rest=$1 out=""
  case $rest in
    scalar) echo ""; return ;;
    avx512*) out="avx512f avx512bw avx512dq avx512vl"; rest=${rest#avx512} ;;
    avx2*) out="avx2"; rest=${rest#avx2} ;;
    *) echo "?"; return ;;
  esac
  while [ -n "$rest" ]; do
    case $rest in
      _avx_vnni*) out="$out avx_vnni"; rest=${rest#_avx_vnni} ;;
      _vnni*) out="$out avx512_vnni"; rest=${rest#_vnni} ;;
      _fma*) out="$out fma"; rest=${rest#_fma} ;;
      *) echo "?"; return ;;
    esac
  done
  echo "$out"
}
supported() {
  local f n
  n=$(needs "$1")
  [ "$n" != "?" ] || return 1
  for f in $n; do [[ $flags == *" $f "* ]] || return 1; done
}
# The x86-64 variant list of a kernel, from its X-macro (the first definition).
variants_of() {
  grep -m1 "#define SIMDGEN_$1_VARIANTS(X)" "$headers/$1.h" | grep -o 'X([a-z0-9_]*)' | sed 's/X(\(.*\))/\1/'
}
run() { env "$@" "$exe" "$example/sample.txt" > "$WORK/out.txt" 2> "$WORK/err.txt"; }
used() { sed -n "s/.* $1=\([a-z0-9_]*\).*/\1/p" "$WORK/err.txt"; }

run SIMDGEN_VARIANT=
diff -u "$WORK/expected.txt" "$WORK/out.txt" >&2 || fail "default run differs from the reference"
declare -A best
for k in $kernels; do best[$k]=$(used "$k"); done
echo "default: $(cat "$WORK/err.txt")"

# The spec spelling of a suffix: avx2_avx_vnni_fma -> avx2+avx_vnni+fma.
spelled() { sed -E 's/_(avx_vnni|vnni|fma|dotprod)/+\1/g' <<< "$1"; }
reports() { grep -c '^simdgen: SIMDGEN_VARIANT=' "$WORK/err.txt" || true; }

all=$(for k in $kernels; do variants_of "$k"; done | sort -u)
tested=0
for v in $all bogus avx2fma avx512_vnni avx512+vnni; do
  for name in $(printf '%s\n' "$v" "$(spelled "$v")" | sort -u); do
    run SIMDGEN_VARIANT="$name"
    cmp -s "$WORK/expected.txt" "$WORK/out.txt" || fail "SIMDGEN_VARIANT=$name: results differ"
    lacking=0
    for k in $kernels; do
      want=${best[$k]}
      if grep -qx "$v" <<< "$(variants_of "$k")"; then
        if supported "$v"; then want=$v; else lacking=1; fi
      fi
      [ "$(used "$k")" = "$want" ] || fail "SIMDGEN_VARIANT=$name: $k used '$(used "$k")', expected '$want'"
    done
    case $v in
      bogus | avx2fma) expect="SIMDGEN_VARIANT=$name: not a variant name on this architecture" ;;
      *) expect=""; [ $lacking = 1 ] && expect="SIMDGEN_VARIANT=$name: this CPU does not support it" ;;
    esac
    if [ -n "$expect" ]; then
      [ "$(reports)" = 1 ] && grep -q "^simdgen: $expect" "$WORK/err.txt" ||
        { cat "$WORK/err.txt" >&2; fail "SIMDGEN_VARIANT=$name: expected one report: $expect"; }
    else
      [ "$(reports)" = 0 ] || { cat "$WORK/err.txt" >&2; fail "SIMDGEN_VARIANT=$name: reported, but nothing is wrong"; }
    fi
    supported "$v" && tested=$((tested + 1))
    echo "ok SIMDGEN_VARIANT=$name: $(tr '\n' ' ' < "$WORK/err.txt")"
  done
done
[ $tested -ge 1 ] || fail "no variant tested"
