#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built row-kernel benchmark (bench/rows: simdgen_bench_rows) RUNS times, pinned to one core,
# and prints its Markdown tables (make_rows_table.py: the summary of ratios, then a table per case).
# Builds nothing (ninja -C BUILD_DIR simdgen_bench_rows). One run takes about 4.5 minutes (285
# cases, 3 repetitions of 0.2 s) on an idle core.
# Usage:
#   bench/rows/run_rows_benchmarks.sh BUILD_DIR [OUT_PREFIX] [extra benchmark flags...]
# writes OUT_PREFIX.runN.json (default prefix: rows_bench) and OUT_PREFIX.runN.json.load (whether
# a build or test suite ran, every 2 s of the run).
# Env:
#   MIN_TIME     s per repetition (default 0.2)
#   REPETITIONS  per run (default 3; interleaved at random, so that a burst of load from elsewhere
#                hits every implementation alike; medians)
#   RUNS         separate processes (default 2); the tables take the median over runs
#   BENCH_CPU    core to pin to with taskset (default 1; empty = no pinning)
#   PEER_KERNELS avx512 (default on AVX-512 CPUs) or default: Debian bookworm's OpenBLAS 0.3.21
#                predates Zen 4 and Zen 5; its detection happens to pick Cooperlake on Zen 4 but
#                AVX2 kernels on Zen 5 (bench/run_contraction_benchmarks.sh), so by default it is
#                pointed at its AVX-512 ones (OPENBLAS_CORETYPE=SkylakeX, the same sdot and sgemv
#                kernels as Cooperlake's); "default" leaves its own detection. The JSON context
#                records the core OpenBLAS ran.
# Every library runs one thread: the serial OpenBLAS, oneDNN's OpenMP through OMP_NUM_THREADS=1
# (the binary also calls omp_set_num_threads(1)); the others have no threads.
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [out_prefix] [benchmark flags...]}
prefix=${2:-rows_bench}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin="$build/bench/rows/simdgen_bench_rows"
[[ -x "$bin" ]] || { echo "$0: $bin is not built (ninja -C $build simdgen_bench_rows)" >&2; exit 2; }

export OMP_NUM_THREADS=1
kernels=${PEER_KERNELS:-}
if [[ -z "$kernels" ]]; then
  if grep -qw avx512f /proc/cpuinfo; then kernels=avx512; else kernels=default; fi
fi
if [[ "$kernels" == avx512 ]]; then
  if [[ -n "${OPENBLAS_CORETYPE-}" && "$OPENBLAS_CORETYPE" != SkylakeX ]]; then
    echo "PEER_KERNELS=avx512: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE replaced by SkylakeX" >&2
  fi
  export OPENBLAS_CORETYPE=SkylakeX
fi

pin=()
if [[ -n "${BENCH_CPU-1}" ]] && command -v taskset >/dev/null; then
  pin=(taskset -c "${BENCH_CPU-1}")
fi
# Compiles and test suites on the other core share L3 and memory bandwidth: say so, as the notes
# must. A sampler notes every 2 s whether one runs; each run ends with the count.
heavy='ctest|ninja|cc1plus'
if busy=$(pgrep -fa "$heavy"); then
  echo "$0: warning: other heavy processes are running; the figures will be noisier:" >&2
  echo "$busy" >&2
fi

files=()
for run in $(seq 1 "${RUNS:-2}"); do
  out="$prefix.run$run.json"
  (while sleep 2; do if pgrep -f "$heavy" >/dev/null; then echo busy; else echo idle; fi; done) > "$out.load" &
  sampler=$!
  "${pin[@]}" "$bin" \
      --benchmark_min_time="${MIN_TIME:-0.2}" \
      --benchmark_repetitions="${REPETITIONS:-3}" \
      --benchmark_enable_random_interleaving=true \
      --benchmark_report_aggregates_only=true \
      --benchmark_out_format=json --benchmark_out="$out" "$@" >&2
  kill "$sampler"
  echo "$0: run $run: $heavy running in $(grep -c busy "$out.load" || true) of $(wc -l < "$out.load") samples (2 s apart)" >&2
  files+=("$out")
done
python3 "$here/make_rows_table.py" --summary "${files[@]}"
echo
python3 "$here/make_rows_table.py" "${files[@]}"
