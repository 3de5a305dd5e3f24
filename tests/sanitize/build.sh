#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds tests/sanitize/project with clang-19 (ASan/UBSan and libFuzzer) in $1.
# Usage: build.sh BUILD_DIR CLANGXX
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cmake -S "$here/project" -B "$1" -G Ninja -DCMAKE_CXX_COMPILER="$2" -DCMAKE_BUILD_TYPE= > "$1.configure.log" 2>&1 ||
  { cat "$1.configure.log"; exit 1; }
cmake --build "$1" -j 2
