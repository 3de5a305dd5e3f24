#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built transpose benchmark (simdgen_bench_transpose) and prints its
# Markdown tables (make_transpose_table.py), with the shuffle count of the
# 16x16 networks from objdump. Builds nothing. Usage:
#   bench/run_transpose_benchmarks.sh BUILD_DIR [OUT_PREFIX] [extra benchmark flags...]
# writes OUT_PREFIX.transpose.json (default prefix: transpose_bench). Env:
# MIN_TIME (s per repetition, default 0.05), REPETITIONS (default 5;
# interleaved at random so that a burst of load from elsewhere hits every
# implementation alike; medians are reported), BENCH_CPU (core to pin to with
# taskset, default 1; empty = no pinning).
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [out_prefix] [benchmark flags...]}
prefix=${2:-transpose_bench}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

pin=()
if [[ -n "${BENCH_CPU-1}" ]] && command -v taskset >/dev/null; then
  pin=(taskset -c "${BENCH_CPU-1}")
fi
echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"${pin[@]}" "$build/bench/simdgen_bench_transpose" \
    --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_repetitions="${REPETITIONS:-5}" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true \
    --benchmark_out_format=json --benchmark_out="$prefix.transpose.json" "$@" >&2

# Objects whose transpose functions get their shuffles counted (when present).
objdir="$build/bench/CMakeFiles/simdgen_bench_transpose.dir"
objects=()
for o in "$objdir/__/generated/transpose_16x16_f32.cpp.o" "$objdir/peers_transpose_hand.cpp.o"; do
  [[ -f "$o" ]] && objects+=(--object "$o")
done
python3 "$here/make_transpose_table.py" "${objects[@]}" "$prefix.transpose.json"
