#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/rowstats/vendored: checked-in kernels built without simdgen and without -m flags, with
# each native compiler (plain command line) and with the directory's tiny CMakeLists.txt.
source "$(dirname "$0")/lib.sh"
start
v=$example/vendored
for cxx in g++-12 clang++-19; do
  command -v "$cxx" > /dev/null || fail "$cxx not found"
  "$cxx" -O2 -Wall -Wextra -Werror -I"$v" "$example/rowstats.cpp" "$v"/*.cpp -o "$WORK/rowstats-$cxx"
  check_rowstats "$cxx" "$WORK/rowstats-$cxx"
done
configure -S "$v" -B "$WORK/cmake"
build "$WORK/cmake"
check_rowstats "vendored/CMakeLists.txt" "$WORK/cmake/rowstats"
