#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A two-kernel project using simdgen_add_kernels (simdgen pulled in with FetchContent from the
# source tree, the main build's binary reused): editing one spec regenerates and recompiles only
# that kernel and what includes its header; touching a template reruns both generations but
# recompiles nothing (same output); editing a template recompiles both kernels.
source "$(dirname "$0")/lib.sh"
start
p=$WORK/project
b=$WORK/build
mkdir -p "$p/specs" "$b"
cp -r "$SIMDGEN_SOURCE_DIR/templates" "$WORK/templates"   # a copy we may edit
for k in alpha:add beta:max; do
  name=${k%%:*} op=${k##*:}
  cat > "$p/specs/$name.json" <<JSON
{ "simdgen": 1, "name": "k_$name", "kind": "reduce", "op": "$op",
  "input": { "dtype": "f32", "shape": ["rows", "cols"] } }
JSON
  cat > "$p/use_$name.cpp" <<CPP
#include "k_$name.h"
float use_$name() { float m[6] = {1, 2, 3, 4, 5, 6}, out[2]; k_$name(m, 2, 3, out); return out[0] + out[1]; }
CPP
done
cat > "$p/main.cpp" <<'CPP'
#include <cstdio>
float use_alpha();
float use_beta();
int main() { std::printf("%g %g\n", use_alpha(), use_beta()); }
CPP
cat > "$p/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(regen LANGUAGES CXX)
include(FetchContent)
FetchContent_Declare(simdgen SOURCE_DIR ${SIMDGEN_SOURCE})
FetchContent_MakeAvailable(simdgen)
add_executable(app main.cpp use_alpha.cpp use_beta.cpp)
simdgen_add_kernels(app SPECS specs/alpha.json specs/beta.json OUTPUT_DIR kernels)
CMAKE

configure -S "$p" -B "$b" -DSIMDGEN_SOURCE="$SIMDGEN_SOURCE_DIR" -DSIMDGEN_EXECUTABLE="$SIMDGEN_BIN" \
  -DSIMDGEN_TEMPLATES_DIR="$WORK/templates"
# A FetchContent consumer's configure prints nothing of simdgen's dependency searches (LLVM's).
! grep -E "LLVM|Clang|LibEdit|zstd|CURL|FFI|LibXml2|ZLIB" "$WORK/configure.log" ||
  fail "the consumer's configure prints simdgen's dependency searches"
files=(kernels/k_alpha.h kernels/k_alpha.cpp kernels/k_beta.h kernels/k_beta.cpp
  CMakeFiles/app.dir/kernels/k_alpha.cpp.o CMakeFiles/app.dir/kernels/k_beta.cpp.o
  CMakeFiles/app.dir/use_alpha.cpp.o CMakeFiles/app.dir/use_beta.cpp.o CMakeFiles/app.dir/main.cpp.o app)
# Only the app target: a plain `ninja` would also build the subproject's own simdgen.
ninja -C "$b" app > "$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "first build failed"; }
[ "$("$b/app")" = "21 9" ] || fail "app printed '$("$b/app")', expected '21 9'"

stamp() { (cd "$b" && stat -c '%n %.9Y' "${files[@]}"); }
words() { printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' '; }
# step DESCRIPTION EXPECTED_GENERATIONS EXPECTED_CHANGED_FILES...: rebuilds app and checks which
# specs were regenerated (from ninja -v) and which outputs changed (mtimes).
step() {
  local what=$1 gens=$2
  shift 2
  stamp > "$WORK/before"
  ninja -C "$b" -v -d explain app > "$WORK/step.log" 2>&1 || { cat "$WORK/step.log" >&2; fail "$what: build failed"; }
  stamp > "$WORK/after"
  local ran changed
  ran=$(words $(sed -n 's|.* generate [^ ]*/specs/\([a-z]*\.json\) .*|\1|p' "$WORK/step.log"))
  changed=$(words $(diff "$WORK/before" "$WORK/after" | sed -n 's/^> \([^ ]*\) .*/\1/p'))
  local want
  want=$(words "$@")
  [ "$ran" = "$(words $gens)" ] || { cat "$WORK/step.log" >&2; fail "$what: regenerated '$ran', expected '$gens'"; }
  [ "$changed" = "$want" ] || { cat "$WORK/step.log" >&2; fail "$what: changed '$changed', expected '$want'"; }
  local again
  again=$(ninja -C "$b" app)
  grep -q "no work to do" <<< "$again" || fail "$what: a second build still had work: $again"
  echo "ok $what: regenerated [$ran] changed [$changed]"
}

step "no change" ""
sed -i 's|"kind"|"description": "edited", "kind"|' "$p/specs/alpha.json"
step "alpha.json edited" "alpha.json" kernels/k_alpha.h kernels/k_alpha.cpp \
  CMakeFiles/app.dir/kernels/k_alpha.cpp.o CMakeFiles/app.dir/use_alpha.cpp.o app
touch "$WORK/templates/kernel.cpp.mustache"
step "template touched" "alpha.json beta.json"
echo "// edited template" >> "$WORK/templates/kernel.cpp.mustache"
step "template edited" "alpha.json beta.json" kernels/k_alpha.cpp kernels/k_beta.cpp \
  CMakeFiles/app.dir/kernels/k_alpha.cpp.o CMakeFiles/app.dir/kernels/k_beta.cpp.o app
[ "$("$b/app")" = "21 9" ] || fail "app printed '$("$b/app")' after the edits, expected '21 9'"
