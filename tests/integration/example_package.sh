#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/rowstats as a consumer of the installed package (find_package(simdgen CONFIG) +
# simdgen_add_kernels), against a moved copy of the prefix installed by install.sh.
source "$(dirname "$0")/lib.sh"
: "${PREFIX:?}"
start
# A moved copy of the prefix: the package must be relocatable.
cp -a "$PREFIX" "$WORK/prefix"
b=$WORK/build
configure -S "$example" -B "$b" -DCMAKE_PREFIX_PATH="$WORK/prefix"
# Captured first: grep -q ending a pipe early would kill ninja with SIGPIPE under pipefail.
inputs=$(ninja -C "$b" -t query simdgen/row_sum_f32.h)
grep -q "^    $WORK/prefix/bin/simdgen$" <<< "$inputs" ||
  fail "row_sum_f32.h does not depend on the installed simdgen"
grep -q "$WORK/prefix/share/simdgen/templates/kernel.h.mustache$" <<< "$inputs" ||
  fail "row_sum_f32.h does not depend on the installed templates"
build "$b"
check_rowstats "find_package build" "$b/rowstats"
