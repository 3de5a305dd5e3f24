#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's two Quick start commands: installs what is missing (Debian bookworm, as root),
# builds, then either runs the generator on the example specs (`demo`) or the test suite (`test`).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-demo}

packages="cmake ninja-build g++-12 python3 python3-jsonschema llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 libclang-rt-19-dev
  nlohmann-json3-dev doctest-dev libkainjow-mustache-dev libcli11-dev libbenchmark-dev
  libhwy-dev libeigen3-dev g++-aarch64-linux-gnu qemu-user"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "== installing:$missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

# The demo needs the generator only; the tests need everything (their kernels, cross-compiled too).
target=""
[ "$mode" = demo ] && target="--target simdgen"
echo "== building${target:+ simdgen}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDGEN_BUILD_BENCH=OFF > build.log 2>&1 || { cat build.log; exit 1; }
cmake --build build -j "$(nproc)" $target >> build.log 2>&1 || { tail -50 build.log; exit 1; }

case "$mode" in
  demo)
    echo "== simdgen generate specs/*.json -o out/generated"
    build/generator/simdgen generate specs/*.json -o out/generated
    echo "== simdgen explain specs/seed_rowsum_i8_384x512.json (the IREE example: 384x512 i8 -> i32)"
    build/generator/simdgen explain specs/seed_rowsum_i8_384x512.json
    ;;
  test)
    echo "== ctest"
    ctest --test-dir build --output-on-failure -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
