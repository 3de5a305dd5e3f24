#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown table from simdgen_bench_contraction JSON output.

Usage: make_contraction_table.py RUN1.json [RUN2.json ...] > table.md

Benchmarks are "<kernel>/<size>/<impl>" (bench/bench_contraction.cpp):
"matmul/<M>x<N>x<K>/...", "conv/seed/...", and the FMA peak rows "peak/...".
Each file is one run (one process). Within a run, a row's figures are the
median over its repetitions (the "median" aggregate, or the median of the
repetitions when they are all reported); over several runs, the median of the
runs' figures.

Columns: CPU time per call; G ops/s (the GFLOP rate counter: CPU time, an FMA
is 2 operations; for integer kernels, a multiply-add of two integers is 2
integer operations); "% of peak" = G ops/s over the better f32 FMA peak row of
the same run (independent FMA chains on zmm or ymm registers), then the median
over runs, for float kernels only (integer dot products are not bound by it);
"time / simdgen" = the row's time over the generated dispatcher's ("simdgen")
for the same kernel and size: above 1, simdgen is faster.
"""
import collections
import json
import statistics
import sys

KERNEL_ORDER = ["conv", "matmul", "matmul_bf16", "matmul_u8i8", "matmul_i8i8", "matmul_u8u8", "matmul_i16i16"]
INTEGER_KERNELS = {"matmul_u8i8", "matmul_i8i8", "matmul_u8u8", "matmul_i16i16"}  # G ops/s are integer operations: no % of the f32 FMA peak
SIZE_ORDER = ["seed", "512x512x512", "509x517x511", "1024x1024x1024"]
IMPL_ORDER = ["simdgen", "simdgen.avx512_bf16", "simdgen.avx512", "simdgen.avx2_fma", "simdgen.avx2", "simdgen_f32", "halide", "onednn",
              "onednn.nhwc", "onednn.packed", "openblas", "blis", "eigen", "plain.clang19"]
SUBJECT = "simdgen"


def per_run(path):
    """{name: (cpu ns, GFLOP/s, label)} of one run, plus its context and errors."""
    with open(path) as f:
        doc = json.load(f)
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    samples = collections.defaultdict(list)
    medians, labels, errors = {}, {}, {}
    for b in doc["benchmarks"]:
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
            continue
        if b.get("label"):
            labels[name] = b["label"]
        value = (b["cpu_time"] * scale[b.get("time_unit", "ns")], b.get("GFLOP"), b.get("ghz"))
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = value
        else:
            samples[name].append(value)
    rows = {}
    for name in set(samples) | set(medians):
        if name in medians:
            rows[name] = medians[name]
        else:
            vals = samples[name]
            rows[name] = tuple(statistics.median(v[i] for v in vals) if vals[0][i] is not None else None
                               for i in range(3))
    return doc.get("context", {}), rows, labels, errors


def order(key, seq):
    return (seq.index(key), "") if key in seq else (len(seq), key)


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def main(paths):
    if not paths:
        sys.exit(__doc__)
    runs = [per_run(p) for p in paths]
    context = runs[0][0]
    # Per run: the peak and every row's fraction of it.
    time_runs, gflop_runs, frac_runs = (collections.defaultdict(list) for _ in range(3))
    peaks, ghz, labels, errors = collections.defaultdict(list), [], {}, {}
    for _, rows, run_labels, run_errors in runs:
        labels.update(run_labels)
        errors.update(run_errors)
        run_peaks = {n: v[1] for n, v in rows.items() if n.startswith("peak/") and v[1]}
        for n, g in run_peaks.items():
            peaks[n].append(g)
        best = max(run_peaks.values(), default=None)
        if "clock/dependent_add_chain" in rows:
            ghz.append(rows["clock/dependent_add_chain"][2])
        for n, (t, g, _) in rows.items():
            if n.count("/") != 2 or n.startswith(("peak/", "clock/")):
                continue
            time_runs[n].append(t)
            if g is not None:
                gflop_runs[n].append(g)
                if best:
                    frac_runs[n].append(g / best)

    med = {n: statistics.median(v) for n, v in time_runs.items()}
    print(f"Date: {context.get('date', '?')}; {len(paths)} run(s); host load "
          f"{', '.join(str(x) for x in context.get('load_avg', []))} at the start of the first.")
    if ghz:
        print(f"Measured clock: {statistics.median(ghz):.2f} GHz (dependent add chain).")
    for n, g in sorted(peaks.items()):
        print(f"FMA peak `{n}`: {statistics.median(g):.1f} GFLOP/s"
              + (f" = {statistics.median(g) / statistics.median(ghz):.1f} flop/cycle" if ghz else ""))
    for key in ("openblas", "blis", "onednn", "halide_target", "simdgen"):
        if key in context:
            print(f"{key}: {context[key]}")
    print()
    print("| kernel | size | implementation | ms/call | G ops/s | % of f32 peak | time / simdgen | notes |")
    print("|---|---|---|---:|---:|---:|---:|---|")

    def key(n):
        kernel, size, impl = n.split("/")
        return order(kernel, KERNEL_ORDER), order(size, SIZE_ORDER), order(impl, IMPL_ORDER)

    for n in sorted(set(med) | {e for e in errors if e.count("/") == 2 and not e.startswith("peak/")},
                    key=key):
        kernel, size, impl = n.split("/")
        if n not in med:
            print(f"| {kernel} | {size} | {impl} | - | - | - | - | {errors[n]} |")
            continue
        subject = med.get(f"{kernel}/{size}/{SUBJECT}")
        gflops = statistics.median(gflop_runs[n]) if gflop_runs[n] else None
        frac = statistics.median(frac_runs[n]) * 100 if frac_runs[n] and kernel not in INTEGER_KERNELS else None
        ratio = med[n] / subject if subject else None
        print(f"| {kernel} | {size} | {impl} | {med[n] / 1e6:.3f} | {fmt(gflops, 1)} | "
              f"{fmt(frac, 1)}{'%' if frac is not None else ''} | {fmt(ratio)} | {labels.get(n, '')} |")


if __name__ == "__main__":
    main(sys.argv[1:])
