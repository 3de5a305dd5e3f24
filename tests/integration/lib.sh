# SPDX-License-Identifier: Apache-2.0
# Sourced by the integration scripts. Environment (set by CMakeLists.txt): SIMDGEN_SOURCE_DIR,
# SIMDGEN_BIN (the main build's simdgen), PYTHON, WORK (this test's scratch directory).
set -euo pipefail
: "${SIMDGEN_SOURCE_DIR:?}" "${SIMDGEN_BIN:?}" "${PYTHON:?}" "${WORK:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
example=$SIMDGEN_SOURCE_DIR/examples/rowstats

fail() { echo "FAIL: $*" >&2; exit 1; }

# A clean scratch directory (repeated runs never see old state), with the reference output of
# rowstats for sample.txt and the same matrix in the binary format.
start() {
  rm -rf "$WORK"
  mkdir -p "$WORK"
  "$PYTHON" "$here/rowstats_expected.py" "$example/sample.txt" --binary "$WORK/sample.bin" > "$WORK/expected.txt"
}

# check_rowstats LABEL CMD...: CMD FILE must print the reference for the text and binary sample.
check_rowstats() {
  local label=$1 input
  shift
  for input in "$example/sample.txt" "$WORK/sample.bin"; do
    "$@" "$input" > "$WORK/out.txt" 2> "$WORK/err.txt" || { cat "$WORK/err.txt" >&2; fail "$label: $* $input failed"; }
    diff -u "$WORK/expected.txt" "$WORK/out.txt" >&2 || fail "$label: $input: output differs from the reference"
  done
  echo "ok $label ($(cat "$WORK/err.txt"))"
}

# Configures quietly; shows the log only on failure.
configure() {
  cmake -G Ninja "$@" > "$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log" >&2; fail "configure failed: $*"; }
}
build() {
  cmake --build "$@" > "$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "build failed: $*"; }
}
