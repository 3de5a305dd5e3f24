#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the benchmarks the front page of docs/benchmarks.md shows, and keeps their JSON.

Usage: bench/run_front_page.py --build build-bench [--out DIR] [--only BINARY,...] [--repetitions 3]

Builds nothing (configure with -DSIMDGEN_BUILD_BENCH=ON and build first). For each binary of
bench/front_page.json it runs only the benchmarks the cases name (medians of --repetitions, pinned
to core 1 except the multi-threaded ones) and writes DIR/<binary>.json, then DIR/meta.json (CPU,
date, the commit each binary's kernels were built at, command). DIR defaults to bench/results/<date>-<cpu>. Then:
  bench/front_page.py --write docs/benchmarks.md bench/results/<dir>...
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BINARIES = {  # where each binary is, under the build directory
    "simdgen_bench": "bench/simdgen_bench",
    "simdgen_bench_map": "bench/simdgen_bench_map",
    "simdgen_bench_transpose": "bench/simdgen_bench_transpose",
    "simdgen_bench_contraction": "bench/simdgen_bench_contraction",
    "simdgen_bench_rows": "bench/rows/simdgen_bench_rows",
    "simdgen_bench_math": "bench/math/simdgen_bench_math",
    "simdgen_bench_parallel": "bench/parallel/simdgen_bench_parallel",
    "simdgen_bench_rgb": "bench/rgb/simdgen_bench_rgb",
    "simdgen_bench_matvec_in_order": "bench/matvec_in_order/simdgen_bench_matvec_in_order",
}
THREADED = {"simdgen_bench_parallel"}


def cpu():
    """('AMD EPYC 7B13 family 25 model 1', 'zen3')-like: the model name with family and model."""
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            if ":" in line:
                k, v = (s.strip() for s in line.split(":", 1))
                info.setdefault(k, v)
    family, model = int(info.get("cpu family", 0)), int(info.get("model", 0))
    vendor = info.get("vendor_id", "")
    kind = ""
    if vendor == "AuthenticAMD" and family == 25:
        kind = "Zen 4" if model >= 0x10 else "Zen 3"
    elif vendor == "AuthenticAMD" and family == 26:
        kind = "Zen 5"
    elif vendor == "AuthenticAMD" and family == 23:
        kind = "Zen 2"
    elif vendor == "GenuineIntel":
        kind = "Intel family %d model %d" % (family, model)
    name = f"{info.get('model name', 'unknown')} family {family} model {model}"
    flags = info.get("flags", "").split()
    isa = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "SSE"
    return f"{name} ({kind}, {isa})" if kind else f"{name} ({isa})", (kind or "cpu") + f" ({isa})"


KEEP = ("name", "run_name", "run_type", "aggregate_name", "repetitions", "real_time", "cpu_time", "time_unit", "error_occurred")


def compact(path):
    """Keeps the medians and the fields front_page.py reads (and every counter): a small file to commit."""
    with open(path) as f:
        doc = json.load(f)
    ctx = {k: doc["context"][k] for k in ("date", "num_cpus", "mhz_per_cpu", "caches", "library_build_type") if k in doc["context"]}
    benches = []
    for b in doc["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        benches.append({k: v for k, v in b.items() if k in KEEP or k not in _STANDARD})
    with open(path, "w") as f:
        json.dump({"context": ctx, "benchmarks": benches}, f, indent=0)
        f.write("\n")


# Google Benchmark's own fields: everything else in a record is a counter of the benchmark.
_STANDARD = {"family_index", "per_family_instance_index", "threads", "iterations", "repetition_index",
             "aggregate_unit", "label", "bytes_per_second", "items_per_second", "error_message"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--out")
    ap.add_argument("--only", default="")
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--min-time", default="0.1")
    ap.add_argument("--cases", default=os.path.join(HERE, "front_page.json"))
    a = ap.parse_args()
    with open(a.cases) as f:
        fams = json.load(f)["families"]
    long_name, short = cpu()
    date = datetime.date.today().isoformat()
    out = a.out or os.path.join(HERE, "results", date + "-" + re.sub(r"[^a-z0-9]+", "-", short.lower()).strip("-"))
    os.makedirs(out, exist_ok=True)
    patterns = {}
    for fam in fams:
        for case in fam["cases"]:
            patterns.setdefault(fam["binary"], []).extend([case["simdgen"]] + list(case["peers"].values()))
    only = set(filter(None, a.only.split(",")))
    for binary, pats in patterns.items():
        if only and binary not in only:
            continue
        path = os.path.join(a.build, BINARIES[binary])
        if not os.path.exists(path):
            print(f"{binary}: not built ({path}); skipped", file=sys.stderr)
            continue
        cmd = [] if binary in THREADED else ["taskset", "-c", "1"]
        cmd += [path, "--benchmark_filter=^(" + "|".join(pats) + ")$", f"--benchmark_min_time={a.min_time}",
                f"--benchmark_repetitions={a.repetitions}", "--benchmark_report_aggregates_only=true",
                "--benchmark_out=" + os.path.join(out, binary + ".json"), "--benchmark_out_format=json"]
        print("==", " ".join(cmd[:4]), "...", file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        compact(os.path.join(out, binary + ".json"))
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    meta_path = os.path.join(out, "meta.json")
    meta = {}
    if os.path.exists(meta_path):  # an earlier run into this directory: its binaries keep their commits
        with open(meta_path) as f:
            meta = json.load(f)
    meta.update({"cpu": long_name, "cpu_short": short, "date": date,
                 "command": f"bench/run_front_page.py --build {a.build} --repetitions {a.repetitions}"})
    runs = meta.setdefault("runs", {})
    for binary in patterns:
        if (not only or binary in only) and os.path.exists(os.path.join(out, binary + ".json")):
            runs[binary] = {"commit": commit, "date": date}
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
