#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generated kernels link into a C program with a C linker alone: no generated object may refer to
# the C++ runtime (libstdc++/libsupc++: __cxa_guard_* of a guarded static, __gxx_personality_v0 of
# landing pads, operator new/delete, std::...) nor have landing pads (_Unwind_Resume). Every
# undefined symbol must be on the list below: the C library's, the math library's (the C program
# links -lm), libgcc's (which the C driver links too) and the linker's.
# Usage: cxx_runtime.sh NM OBJECT...                      check objects built elsewhere
#        cxx_runtime.sh NM --compile OBJECT CXX ARGS...   first build OBJECT with `CXX ARGS -c -o OBJECT`
set -euo pipefail
nm=$1
shift
if [ "${1:-}" = --compile ]; then
  object=$2
  shift 2
  mkdir -p "$(dirname "$object")"
  "$@" -c -o "$object"
  compiled=$object
  set -- "$object"
fi
[ $# -gt 0 ] || { echo "usage: cxx_runtime.sh NM OBJECT... | NM --compile OBJECT CXX ARGS..." >&2; exit 2; }

# What a generated file may call: extend the list only with C library, libm or libgcc symbols.
allowed=(
  # C library: the dispatcher (SIMDGEN_VARIANT, its report), SIMDGEN_SCRATCH_ON_HEAP, the CPU's
  # feature bits on AArch64 Linux, and what compilers emit for copies and zeroing.
  fprintf stderr getenv strcmp strlen strstr aligned_alloc free abort getauxval memcpy memmove memset
  # libm: the scalar variants' float math (fma, sqrt, rounding to integral values, min/max).
  '(fma|sqrt|floor|ceil|trunc|rint|nearbyint|round|lrint|llrint|lround|llround|fmin|fmax|fabs)f?'
  # libgcc: x86 __builtin_cpu_supports/__builtin_cpu_is, AArch64 outline atomics (GCC's default
  # -moutline-atomics), popcount() in one-lane code where the target has no POPCNT instruction
  # (GCC calls __popcountdi2; compiler-rt has it too), and the linker-defined GOT symbol.
  __cpu_model __cpu_features2 __cpu_indicator_init __popcountdi2 __popcountsi2
  '__aarch64_(cas|swp|ldadd|ldclr|ldeor|ldset)[0-9]+_(relax|acq|rel|acq_rel|sync)' __aarch64_have_lse_atomics
  _GLOBAL_OFFSET_TABLE_
)
allowed_re="^($(IFS='|'; echo "${allowed[*]}"))$"
# The C++ runtime by name (for the message; anything off the list fails as well).
cxx_re='^(_Z|__cxa_|__gxx_|_Unwind_|__dynamic_cast|__gcc_personality)'

status=0
present=()
for object in "$@"; do
  if [ -f "$object" ]; then present+=("$object"); else
    echo "FAIL: $object: missing (its build or compile test failed?)" >&2
    status=1
  fi
done
# One nm for every object ("OBJECT: U SYMBOL" lines with -A), then the "OBJECT SYMBOL" pairs off the list.
undefined=""
[ ${#present[@]} = 0 ] || undefined=$("$nm" -A -u "${present[@]}")
bad=$(awk '{ file = $1; sub(/:$/, "", file); print file, $NF }' <<< "$undefined" | grep -Ev " ${allowed_re#^}" || true)
while read -r object symbol; do
  [ -n "$object" ] || continue
  status=1
  if [[ $symbol =~ $cxx_re ]]; then
    demangled=$(c++filt <<< "$symbol")
    [ "$demangled" = "$symbol" ] && demangled="" || demangled=" ($demangled)"
    echo "FAIL: $object: refers to the C++ runtime: $symbol$demangled" >&2
  else
    echo "FAIL: $object: refers to $symbol, on no list of C library, libm or libgcc symbols here" \
         "(tests/compile/cxx_runtime.sh; add it there if a C program links it without -lstdc++)" >&2
  fi
done <<< "$bad"
if [ $status != 0 ]; then
  [ -n "${compiled:-}" ] && echo "($compiled holds every file given: compile them one by one to see which)" >&2
  exit 1
fi
echo "ok: $# object(s) refer to no C++ runtime symbol"
