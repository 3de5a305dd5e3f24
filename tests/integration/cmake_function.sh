#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# simdgen_add_kernels with a prebuilt simdgen: two specs naming the same kernel stop the configure
# with simdgen's message (not CMake's "already has a custom rule"), within one call and across two
# calls sharing an OUTPUT_DIR; SPDX and COPYRIGHT reach the generated files' header.
source "$(dirname "$0")/lib.sh"
start
p=$WORK/project
mkdir -p "$p/specs" "$p/other"
spec() { echo "{ \"simdgen\": 1, \"name\": \"$1\", \"kind\": \"reduce\", \"op\": \"add\", \"input\": { \"dtype\": \"f32\", \"shape\": [\"n\"] } }"; }
spec k_sum > "$p/specs/a.json"
spec k_sum > "$p/other/a_copy.json"
spec k_other > "$p/specs/b.json"
echo 'float use(); int main() { return use() == 3 ? 0 : 1; }' > "$p/main.cpp"
echo '#include "k_sum.h"
float use() { float x[2] = {1, 2}, s = 0; k_sum(x, 2, &s); return s; }' > "$p/use.cpp"
project() {
  cat > "$p/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(dup LANGUAGES CXX)
include($SIMDGEN_SOURCE_DIR/cmake/SimdgenGenerate.cmake)
add_executable(app main.cpp use.cpp)
$1
CMAKE
}
configure_fails() {
  local label=$1
  rm -rf "$WORK/build"
  if cmake -G Ninja -S "$p" -B "$WORK/build" -DSIMDGEN_EXECUTABLE="$SIMDGEN_BIN" > "$WORK/configure.log" 2>&1; then
    fail "$label: configure succeeded"
  fi
  # CMake wraps messages: compare with the lines joined.
  tr -s ' \n' '  ' < "$WORK/configure.log" | grep -q 'kernel name "k_sum" of [^ ]*/other/a_copy.json is already used by [^ ]*/specs/a.json' ||
    { cat "$WORK/configure.log" >&2; fail "$label: no simdgen message"; }
  grep -q "already has a custom rule" "$WORK/configure.log" && fail "$label: CMake's message too"
  echo "ok $label"
}

project "simdgen_add_kernels(app SPECS specs/a.json specs/b.json other/a_copy.json)"
configure_fails "duplicate in one call"
project "simdgen_add_kernels(app SPECS specs/a.json specs/b.json)
add_library(more STATIC main.cpp)
simdgen_add_kernels(more SPECS other/a_copy.json OUTPUT_DIR \${CMAKE_CURRENT_BINARY_DIR}/simdgen)"
configure_fails "duplicate across two calls"

project "simdgen_add_kernels(app SPECS specs/a.json specs/b.json SPDX MIT COPYRIGHT \"2026 Example Corp\")"
rm -rf "$WORK/build"
configure -S "$p" -B "$WORK/build" -DSIMDGEN_EXECUTABLE="$SIMDGEN_BIN"
build "$WORK/build"
"$WORK/build/app" || fail "the kernel gave a wrong sum"
for f in k_sum.h k_sum.cpp k_other.cpp; do
  head -2 "$WORK/build/simdgen/$f" | diff - <(printf '// SPDX-License-Identifier: MIT\n// SPDX-FileCopyrightText: 2026 Example Corp\n') >&2 ||
    fail "$f: no SPDX tags at the top"
done
echo "ok SPDX and COPYRIGHT"
