#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built map benchmarks (simdgen_bench_map, simdgen_bench_gather) and
# prints their Markdown tables (make_map_table.py). Builds nothing. Usage:
#   bench/run_map_benchmarks.sh BUILD_DIR [OUT_PREFIX] [extra benchmark flags...]
# writes OUT_PREFIX.map.json and OUT_PREFIX.gather.json (default prefix:
# map_bench). Env: MIN_TIME (s per repetition, default 0.02), REPETITIONS
# (default 5; repetitions are interleaved at random so that a burst of load
# from elsewhere hits every implementation alike, and medians are reported),
# BENCH_CPU (core to pin to with taskset, default 1; empty = no pinning),
# WHICH (map, gather or both; default both).
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [out_prefix] [benchmark flags...]}
prefix=${2:-map_bench}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

args=(--benchmark_min_time="${MIN_TIME:-0.02}"
      --benchmark_repetitions="${REPETITIONS:-5}"
      --benchmark_enable_random_interleaving=true
      --benchmark_report_aggregates_only=true
      --benchmark_out_format=json)
pin=()
if [[ -n "${BENCH_CPU-1}" ]] && command -v taskset >/dev/null; then
  pin=(taskset -c "${BENCH_CPU-1}")
fi

jsons=()
for which in map gather; do
  [[ "${WHICH:-both}" == both || "${WHICH:-both}" == "$which" ]] || continue
  "${pin[@]}" "$build/bench/simdgen_bench_$which" "${args[@]}" \
      --benchmark_out="$prefix.$which.json" "$@" >&2
  jsons+=("$prefix.$which.json")
done
python3 "$here/make_map_table.py" "${jsons[@]}"
