#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `simdgen generate --check` on a copy of examples/rowstats (never the repository itself): passes
# on the checked-in files (and they have no orphans), fails naming exactly the stale or missing
# files, and writes nothing.
source "$(dirname "$0")/lib.sh"
start
x=$WORK/rowstats
mkdir -p "$x"
cp -r "$example/specs" "$example/vendored" "$x/"   # same relative layout: same spec paths in the headers
check() { "$SIMDGEN_BIN" --templates "$SIMDGEN_SOURCE_DIR/templates" generate --check "$x"/specs/*.json -o "$x/vendored"; }

check > "$WORK/check.out" 2>&1 || { cat "$WORK/check.out" >&2; fail "examples/rowstats/vendored is stale: regenerate with
  simdgen generate examples/rowstats/specs/*.json -o examples/rowstats/vendored"; }

# Every vendored NAME.h/.cpp has a spec named NAME (spec files are named after their kernels).
for f in "$x"/vendored/*.h "$x"/vendored/*.cpp; do
  stem=$(basename "${f%.*}")
  grep -q "\"name\": \"$stem\"" "$x/specs/$stem.json" 2> /dev/null || fail "vendored/$(basename "$f") has no spec"
done

# expect_stale NAME...: --check exits 1 and names exactly these files, each "out of date with its
# spec" or, for NAME ending in "(missing)", "missing".
expect_stale() {
  local rc=0
  check > "$WORK/check.out" 2> "$WORK/check.err" || rc=$?
  [ $rc = 1 ] || { cat "$WORK/check.out" "$WORK/check.err" >&2; fail "--check exited $rc, expected 1"; }
  local named
  named=$(sed -n -e 's|^.*/vendored/\([^/:]*\): out of date with its spec$|\1|p' \
                 -e 's|^.*/vendored/\([^/:]*\): missing$|\1(missing)|p' "$WORK/check.out" | sort | tr '\n' ' ')
  [ "$named" = "$* " ] || { cat "$WORK/check.out" >&2; fail "--check named '$named', expected '$* '"; }
  grep -q "^  .*simdgen.* generate .* -o $x/vendored\$" "$WORK/check.err" ||
    { cat "$WORK/check.err" >&2; fail "--check did not print the command that updates the files"; }
  echo "ok stale: $*"
}

cp "$x/vendored/row_max_f32.cpp" "$WORK/saved.cpp"
echo "// local edit" >> "$x/vendored/row_max_f32.cpp"
expect_stale row_max_f32.cpp
cmp -s "$x/vendored/row_max_f32.cpp" "$WORK/saved.cpp" && fail "--check rewrote a file"
cp "$WORK/saved.cpp" "$x/vendored/row_max_f32.cpp"

rm "$x/vendored/row_sum_f32.h"
expect_stale "row_sum_f32.h(missing)"
[ -e "$x/vendored/row_sum_f32.h" ] && fail "--check wrote a missing file"
cp "$example/vendored/row_sum_f32.h" "$x/vendored/"

# A spec edit (its description) makes both of its files stale.
sed -i 's|"description": "|"description": "edited: |' "$x/specs/col_max_f32.json"
expect_stale col_max_f32.cpp col_max_f32.h

# The command --check prints brings the files up to date.
fix=$(sed -n 's/^  //p' "$WORK/check.err")
eval "$fix" > /dev/null
check > "$WORK/check.out" 2>&1 || { cat "$WORK/check.out" >&2; fail "--check still fails after: $fix"; }
echo "ok the printed command updates them: $fix"
