#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `simdgen lift --rewrite` on a small CMake project (tests/lift/project): its compilation database
# drives the lift, the rewritten program is rebuilt with the generated kernels, and it must print
# exactly what the original printed. `--diff` first, which must leave the file as it was.
# Usage: rewrite_project.sh SIMDGEN WORK
set -euo pipefail
simdgen=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cp -r "$here/project" "$work/src"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_C_COMPILER=gcc-12 -DCMAKE_CXX_COMPILER=g++-12 > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/stats" > "$work/before.txt"

cp "$work/src/stats.c" "$work/stats.c.orig"
"$simdgen" lift --diff -p "$work/build" "$work/src/stats.c" -o "$work/specs" > "$work/diff.txt" 2> "$work/remarks.txt"
cmp -s "$work/src/stats.c" "$work/stats.c.orig" || fail "--diff changed stats.c"
grep -q '^+#include "pixel_sum_lifted.h"' "$work/diff.txt" || { cat "$work/diff.txt"; fail "--diff shows no #include"; }

"$simdgen" lift --rewrite -p "$work/build" "$work/src/stats.c" -o "$work/specs" 2> "$work/remarks.txt"
cat "$work/remarks.txt"
for name in pixel_sum hottest lowest checksum byte_total row_totals row_max_shifted brighten; do
  grep -q "remark: lifted: ${name}_lifted" "$work/remarks.txt" || fail "$name was not lifted"
  grep -q "${name}_lifted(" "$work/src/stats.c" || fail "the rewritten stats.c does not call ${name}_lifted"
done
grep -q "remark: not lifted: .*the index .count++. is not" "$work/remarks.txt" || fail "running_peaks: no remark saying why it is not lifted"
grep -q 'peaks\[count++\] = i' "$work/src/stats.c" || fail "running_peaks changed"

"$simdgen" -q generate "$work"/specs/*.json -o "$work/kernels"
cmake -S "$work/src" -B "$work/build" -DLIFTED_KERNELS="$work/kernels" > "$work/configure2.log"
cmake --build "$work/build" > "$work/build2.log" 2>&1 || { cat "$work/build2.log"; fail "the rewritten project does not build"; }
! grep -q "warning:" "$work/build2.log" || { cat "$work/build2.log"; fail "warnings in the rewritten project"; }
"$work/build/stats" > "$work/after.txt"
diff -u "$work/before.txt" "$work/after.txt" || fail "the rewritten program prints something else"
echo "ok: the rewritten project prints what the original printed ($(wc -l < "$work/after.txt") lines)"
