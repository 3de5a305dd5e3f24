#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built contraction benchmark (simdgen_bench_contraction) RUNS times
# and prints its Markdown table (make_contraction_table.py). Builds nothing.
# Usage:
#   bench/run_contraction_benchmarks.sh BUILD_DIR [OUT_PREFIX] [extra benchmark flags...]
# writes OUT_PREFIX.contraction.runN.json (default prefix: contraction_bench).
# Env:
#   MIN_TIME     s per repetition (default 0.3)
#   REPETITIONS  per run (default 3; interleaved at random so that a burst of
#                load from elsewhere hits every implementation alike; medians)
#   RUNS         separate processes (default 1); the table takes the median
#                over runs, each row's % of peak against its own run's peak
#   BENCH_CPU    core to pin to with taskset (default 1; empty = no pinning)
#   PEER_KERNELS avx512 (default on AVX-512 CPUs) or default. Debian bookworm's
#                OpenBLAS 0.3.21 and BLIS 0.9 predate Zen 5 and pick AVX2 (OpenBLAS:
#                Haswell) or reference (BLIS: generic) kernels on it, so by default
#                both are pointed at their AVX-512 kernels (OPENBLAS_CORETYPE=SkylakeX,
#                BLIS_ARCH_TYPE=0, BLIS 0.9's id of skx); "default" leaves their own
#                detection and any OPENBLAS_CORETYPE / BLIS_ARCH_TYPE already in the
#                environment. The JSON context records what each library ran.
# Every library runs one thread: the serial OpenBLAS and BLIS builds, oneDNN's
# OpenMP through OMP_NUM_THREADS=1 (the binary also calls omp_set_num_threads(1)),
# Halide's schedule has no parallel loop.
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [out_prefix] [benchmark flags...]}
prefix=${2:-contraction_bench}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin="$build/bench/simdgen_bench_contraction"
[[ -x "$bin" ]] || { echo "$0: $bin is not built (ninja -C $build simdgen_bench_contraction)" >&2; exit 2; }

export OMP_NUM_THREADS=1
kernels=${PEER_KERNELS:-}
if [[ -z "$kernels" ]]; then
  if grep -qw avx512f /proc/cpuinfo; then kernels=avx512; else kernels=default; fi
fi
if [[ "$kernels" == avx512 ]]; then
  for setting in OPENBLAS_CORETYPE=SkylakeX BLIS_ARCH_TYPE=0; do
    var=${setting%%=*}
    if [[ -n "${!var-}" && "${!var}" != "${setting#*=}" ]]; then
      echo "PEER_KERNELS=avx512: $var=${!var} in the environment replaced by $setting" >&2
    fi
    export "$setting"
  done
fi

pin=()
if [[ -n "${BENCH_CPU-1}" ]] && command -v taskset >/dev/null; then
  pin=(taskset -c "${BENCH_CPU-1}")
fi
outputs=()
for run in $(seq 1 "${RUNS:-1}"); do
  out="$prefix.contraction.run$run.json"
  echo "run $run of ${RUNS:-1}; load before it: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "${pin[@]}" "$bin" \
      --benchmark_min_time="${MIN_TIME:-0.3}" \
      --benchmark_repetitions="${REPETITIONS:-3}" \
      --benchmark_enable_random_interleaving=true \
      --benchmark_report_aggregates_only=true \
      --benchmark_out_format=json --benchmark_out="$out" "$@" >&2
  outputs+=("$out")
done
python3 "$here/make_contraction_table.py" "${outputs[@]}"
