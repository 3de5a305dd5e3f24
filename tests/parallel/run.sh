#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates tests/parallel/specs, builds parallel_test.cpp with the kernels (the smallest grain, 64 KiB:
# 2 to 64 tasks from modest shapes) and runtime/simdgen_threads.cpp, runs it, then checks that specs which cannot be
# split are refused with a located error.
# Usage: run.sh WORK SIMDGEN CXX [compiler flags...] [-- RUNNER...]
set -euo pipefail
work=$1 simdgen=$2 cxx=$3
shift 3
flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
[ $# -gt 0 ] && shift
runner=("$@")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/gen"
"$simdgen" generate "$here"/specs/*.json -o "$work/gen" -q
"$cxx" -std=c++17 -O2 -Wall -Wextra -Wshadow -Werror -DSIMDGEN_PARALLEL_GRAIN_BYTES=65536 "${flags[@]}" -I "$work/gen" -I "$root/runtime" \
  "$here/parallel_test.cpp" "$work"/gen/*.cpp "$root/runtime/simdgen_threads.cpp" -pthread -o "$work/parallel_test"
"${runner[@]}" "$work/parallel_test"

# Specs that cannot be split: the error names the spec's /parallel and says why.
for bad in "$here"/bad/*.json; do
  want=$(sed -n 's/^ *"description": "expect: \(.*\)",$/\1/p' "$bad")
  if out=$("$simdgen" generate "$bad" -o "$work/bad" 2>&1); then
    echo "FAIL: $bad was accepted"; exit 1
  fi
  case "$out" in
    *"at /parallel: parallel: $want"*) ;;
    *) echo "FAIL: $bad: expected '$want', got: $out"; exit 1 ;;
  esac
  [ ! -e "$work/bad" ] || [ -z "$(ls -A "$work/bad")" ] || { echo "FAIL: $bad wrote files"; exit 1; }
  if "$simdgen" validate "$bad" > /dev/null 2>&1; then echo "FAIL: simdgen validate accepted $bad"; exit 1; fi
done
# explain states the split.
"$simdgen" explain "$here/specs/p_map_rows.json" | grep -q "^# parallel: p_map_rows_parallel() runs this kernel on parts of rows" ||
  { echo "FAIL: explain does not state the parallel split"; exit 1; }
echo "ok: $(ls "$here"/bad/*.json | wc -l) unsplittable specs refused"
