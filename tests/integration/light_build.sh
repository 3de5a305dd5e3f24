#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The light build a consumer gets: simdgen as a subproject of examples/rowstats (add_subdirectory,
# so SIMDGEN_WITH_CLANG defaults to OFF) with LLVM and Clang made unfindable. Only the simdgen
# target is built, without optimisation (fast). It must not link LLVM, must refuse `check` (and `lift`) with
# exit 2 naming the option, and must reproduce generated/ and the vendored kernels byte for byte.
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
set +e
out=$("$bin" lift x.c -o specs 2>&1)
code=$?
set -e
[[ $code == 2 && $out == *"-DSIMDGEN_WITH_CLANG=OFF"* ]] || fail "lift: exit $code, '$out'"
"$bin" list > /dev/null
"$bin" validate "$SIMDGEN_SOURCE_DIR"/specs/*.json > /dev/null
"$bin" explain "$SIMDGEN_SOURCE_DIR/specs/rowsum_i8.json" > /dev/null
# The same bytes as the clang build: the checked-in output is up to date for the light binary.
"$bin" generate --check "$SIMDGEN_SOURCE_DIR"/specs/*.json -o "$SIMDGEN_SOURCE_DIR/generated" ||
  fail "the light build's output differs from generated/"
"$bin" generate --check "$example"/specs/*.json -o "$example/vendored" ||
  fail "the light build's output differs from examples/rowstats/vendored/"
echo "ok light build: no LLVM, check refused, generated/ and the vendored kernels reproduced"
