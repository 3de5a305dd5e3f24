#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The light build a consumer gets: simdgen as a subproject of examples/rowstats (add_subdirectory,
# so SIMDGEN_WITH_CLANG defaults to OFF) with LLVM and Clang made unfindable. Only the simdgen
# target is built, without optimisation (fast). It must not link LLVM, must refuse `check` with
# exit 2 naming the option, and must generate every spec.
source "$(dirname "$0")/lib.sh"
start
b=$WORK/build
configure -S "$example" -B "$b" -DROWSTATS_SIMDGEN_SOURCE_DIR="$SIMDGEN_SOURCE_DIR" \
  -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON -DCMAKE_DISABLE_FIND_PACKAGE_Clang=ON
grep -q "^SIMDGEN_WITH_CLANG:BOOL=OFF$" "$b/CMakeCache.txt" || fail "a subproject build is not light by default"
build "$b" --target simdgen -j 2
bin=$b/simdgen/generator/simdgen
if readelf -d "$bin" | grep NEEDED | grep -q -i -E "llvm|clang"; then fail "the light simdgen links LLVM/Clang"; fi

set +e
out=$("$bin" check "$SIMDGEN_SOURCE_DIR/specs/sum_u64.json" 2>&1)
code=$?
set -e
[[ $code == 2 && $out == *"-DSIMDGEN_WITH_CLANG=OFF"* ]] || fail "check: exit $code, '$out'"
"$bin" list > /dev/null
"$bin" validate "$SIMDGEN_SOURCE_DIR"/specs/*.json > /dev/null
"$bin" explain "$SIMDGEN_SOURCE_DIR/specs/rowsum_i8.json" > /dev/null
"$bin" generate "$SIMDGEN_SOURCE_DIR"/specs/*.json -o "$WORK/generated" > /dev/null

# Byte-identical output is the goal; until the layout pass wraps long lines as clang-format does,
# count how much of generated/ it reproduces.
same=0 total=0
for f in "$SIMDGEN_SOURCE_DIR"/generated/*; do
  total=$((total + 1))
  cmp -s "$f" "$WORK/generated/$(basename "$f")" && same=$((same + 1))
done
echo "ok light build; $same of $total generated files byte-identical to the clang build's"
