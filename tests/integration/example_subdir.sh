#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/rowstats regenerating its kernels, with simdgen as a subproject (add_subdirectory of
# the source tree). The main build's binary is reused via SIMDGEN_EXECUTABLE (building simdgen
# again would take minutes); first we check that without it the kernels depend on the subproject's
# simdgen target, which is what a real consumer gets.
source "$(dirname "$0")/lib.sh"
start
b=$WORK/build
configure -S "$example" -B "$b" -DROWSTATS_SIMDGEN_SOURCE_DIR="$SIMDGEN_SOURCE_DIR"
# A consumer's configure prints nothing of simdgen's dependency searches (LLVM's).
! grep -E "LLVM|Clang|LibEdit|zstd|CURL|FFI|LibXml2|ZLIB" "$WORK/configure.log" ||
  fail "the consumer's configure prints simdgen's dependency searches"
# Captured first: grep -q ending a pipe early would kill ninja with SIGPIPE under pipefail.
inputs=$(ninja -C "$b" -t query simdgen/row_sum_f32.h)
grep -q "^    simdgen/generator/simdgen$" <<< "$inputs" ||
  fail "row_sum_f32.h does not depend on the subproject's simdgen executable"
grep -q "templates/.clang-format$" <<< "$inputs" ||
  fail "row_sum_f32.h does not depend on templates/.clang-format"

configure -S "$example" -B "$b" -DSIMDGEN_EXECUTABLE="$SIMDGEN_BIN"
build "$b" --target rowstats
check_rowstats "add_subdirectory build" "$b/rowstats"
