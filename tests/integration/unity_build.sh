#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Unity builds: several generated .cpp files in one translation unit must not define a helper twice.
# examples/rowstats/vendored is built with CMAKE_UNITY_BUILD and run; every file of generated/ is
# included into one file and compiled by each compiler we have (x86-64 and AArch64), warning-free.
source "$(dirname "$0")/lib.sh"
start
v=$example/vendored
configure -S "$v" -B "$WORK/cmake" -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0 -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror"
build "$WORK/cmake"
check_rowstats "vendored/CMakeLists.txt, unity build" "$WORK/cmake/rowstats"

g=$SIMDGEN_SOURCE_DIR/generated
count=0
for f in "$g"/*.cpp; do
  echo "#include \"$f\""
  count=$((count + 1))
done > "$WORK/all_generated.cpp"
[ "$count" -ge 2 ] || fail "expected generated kernels in $g"
# g++-12 compiles (target attributes and the intrinsics' always_inline are checked at code
# generation, at -O0 too: half the time of -O1, whose warnings the compile tests check per file);
# the others parse.
for cxx in "g++-12 -O0 -c -o $WORK/all_generated.o" "clang++-19 -fsyntax-only" "aarch64-linux-gnu-g++ -fsyntax-only" \
    "clang++-19 --target=aarch64-linux-gnu -fsyntax-only"; do
  read -r -a cmd <<< "$cxx"
  command -v "${cmd[0]}" > /dev/null || fail "${cmd[0]} not found"
  "${cmd[@]}" -std=c++17 -Wall -Wextra -Werror -I"$g" "$WORK/all_generated.cpp" 2> "$WORK/err.txt" ||
    { head -40 "$WORK/err.txt" >&2; fail "$cxx: $count generated files in one translation unit do not compile"; }
  echo "ok $cxx: $count generated files in one translation unit"
done
