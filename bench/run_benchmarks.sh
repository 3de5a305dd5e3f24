#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a built simdgen_bench and prints the results as a Markdown table.
# Builds nothing. Usage:
#   bench/run_benchmarks.sh BUILD/bench/simdgen_bench [OUT.json] [extra benchmark flags...]
# Env: MIN_TIME (s per benchmark, default 0.2: the whole run stays under ~4 min
#      on 2 cores), REPETITIONS (default 1; >1 reports medians),
#      BENCH_CPU (core to pin to with taskset, default 1; empty = no pinning).
# Progress goes to stderr, the table to stdout.
set -euo pipefail

bin=${1:?usage: $0 path/to/simdgen_bench [out.json] [benchmark flags...]}
json=${2:-simdgen_bench.json}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

args=(--benchmark_out="$json" --benchmark_out_format=json
      --benchmark_min_time="${MIN_TIME:-0.2}")
if [[ "${REPETITIONS:-1}" -gt 1 ]]; then
  args+=(--benchmark_repetitions="$REPETITIONS" --benchmark_report_aggregates_only=true)
fi

# Pinning keeps the run on one core's L1/L2 and away from the scheduler
# moving it mid-measurement (2-core machine: the other core takes the noise).
pin=()
if [[ -n "${BENCH_CPU-1}" ]] && command -v taskset >/dev/null; then
  pin=(taskset -c "${BENCH_CPU-1}")
fi

# Console output on stderr as progress; the JSON file is what gets tabulated.
"${pin[@]}" "$bin" "${args[@]}" "$@" >&2

python3 "$here/make_table.py" "$json"
