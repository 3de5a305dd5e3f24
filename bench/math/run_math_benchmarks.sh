#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built math benchmark and accuracy tool (bench/math) and prints the Markdown tables
# (make_math_table.py: the summary and goals, then a table per function and dtype). Builds
# nothing. One run takes about 10 minutes (740 cases), the accuracy tool about 8 on 2 idle cores.
# Usage:
#   bench/math/run_math_benchmarks.sh BUILD_DIR [OUT_PREFIX] [extra benchmark flags...]
# writes OUT_PREFIX.bench.json, OUT_PREFIX.accuracy.json and OUT_PREFIX.accuracy.txt (default
# prefix: math_bench). Env: MIN_TIME (s per repetition, default 0.2), REPETITIONS (default 3;
# interleaved at random, medians reported), BENCH_CPU (core to pin the benchmark to with taskset,
# default 0; empty = no pinning), THREADS (accuracy tool, default 2), STRIDE (f32 inputs: every
# STRIDE-th bit pattern, default 7), ACCURACY=FILE (reuse the accuracy tool's --json FILE of an
# earlier run instead of running it again).
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [out_prefix] [benchmark flags...]}
prefix=${2:-math_bench}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

pin=()
if [[ -n "${BENCH_CPU-0}" ]] && command -v taskset >/dev/null; then
  pin=(taskset -c "${BENCH_CPU-0}")
fi
"${pin[@]}" "$build/bench/math/simdgen_bench_math" \
    --benchmark_min_time="${MIN_TIME:-0.2}" \
    --benchmark_repetitions="${REPETITIONS:-3}" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true \
    --benchmark_out_format=json --benchmark_out="$prefix.bench.json" "$@" >&2
accuracy=${ACCURACY:-}
if [[ -z "$accuracy" ]]; then
  accuracy=$prefix.accuracy.json
  "$build/bench/math/simdgen_bench_math_accuracy" --threads "${THREADS:-2}" --stride "${STRIDE:-7}" \
      --json "$accuracy" | tee "$prefix.accuracy.txt" >&2
fi
python3 "$here/make_math_table.py" --accuracy "$accuracy" --summary "$prefix.bench.json"
echo
python3 "$here/make_math_table.py" --accuracy "$accuracy" "$prefix.bench.json"
