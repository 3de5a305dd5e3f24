#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The light build a consumer gets, checked on the sanitizer tree (tests/sanitize/project: simdgen
# as a subproject, SIMDGEN_WITH_CLANG left to its default, LLVM and Clang unfindable). It must be
# light by default, must not link LLVM, must refuse `check` and `lift` with exit 2 naming the
# option, and must reproduce generated/ and the vendored kernels byte for byte, which also runs
# the whole generator over every spec under ASan/UBSan.
# Usage: light_checks.sh SANITIZE_TREE SIMDGEN_SOURCE_DIR
set -euo pipefail
tree=$1 root=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
grep -q "^SIMDGEN_WITH_CLANG:BOOL=OFF$" "$tree/CMakeCache.txt" || fail "a subproject build is not light by default"
bin=$tree/simdgen/generator/simdgen
if readelf -d "$bin" | grep NEEDED | grep -q -i -E "llvm|clang"; then fail "the light simdgen links LLVM/Clang"; fi

set +e
out=$("$bin" check "$root/specs/sum_u64.json" 2>&1)
code=$?
set -e
[[ $code == 2 && $out == *"-DSIMDGEN_WITH_CLANG=OFF"* ]] || fail "check: exit $code, '$out'"
set +e
out=$("$bin" lift x.c -o specs 2>&1)
code=$?
set -e
[[ $code == 2 && $out == *"-DSIMDGEN_WITH_CLANG=OFF"* ]] || fail "lift: exit $code, '$out'"
"$bin" list > /dev/null
# validate plans every target as generate does: one spec per family here (generate --check
# below runs every spec through the same planning; validating them all too doubled this test).
"$bin" validate "$root"/specs/{rowsum_i8,argmax_f32,map_exp_log_f32_f64,transpose_16x16_f32,conv_same_u8i8_i32}.json > /dev/null
"$bin" explain "$root/specs/rowsum_i8.json" > /dev/null
# The same bytes as the clang build: the checked-in output is up to date for the light binary.
"$bin" generate --check "$root"/specs/*.json -o "$root/generated" ||
  fail "the light build's output differs from generated/"
"$bin" generate --check "$root"/examples/rowstats/specs/*.json -o "$root/examples/rowstats/vendored" ||
  fail "the light build's output differs from examples/rowstats/vendored/"
echo "ok light build under ASan/UBSan: no LLVM, check and lift refused, generated/ and the vendored kernels reproduced"
