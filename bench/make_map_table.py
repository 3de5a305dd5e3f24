#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables from simdgen_bench_map / simdgen_bench_gather JSON output.

Usage: make_map_table.py RESULTS.json [MORE.json ...] > tables.md

map benchmarks are "map/<kernel>/<impl>/<n>" (bench/bench_map.cpp), gather
benchmarks "gather/<method>/s<s>/<n>" (bench/bench_gather.cpp). With
--benchmark_repetitions the median CPU time of each case is used. Several
files (runs) may be given: a case's figure is then the median over the runs'
medians. Cycles come from the measured clock (clock/dependent_add_chain, the
median over runs), not from the OS's nominal frequency.

Ratios are peer time / simdgen time: above 1 means simdgen is faster.
"""
import collections
import json
import statistics
import sys

PEERS = ["plain.clang19", "plain.gcc12", "hwy", "hwy.avx3_dl"]
# Vector width in elements of each map kernel's AVX-512 variant.
LANES = {"times_two": 16, "axpby_fma_f32": 16, "absdiff_i16": 32}
SLOWER_TOLERANCE = 0.95  # "never slower" allows 5% for run-to-run noise


def load(paths):
    times = collections.defaultdict(list)  # name -> [ns per call], one per run
    ghz = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        benches = doc["benchmarks"]
        has_agg = any(b.get("run_type") == "aggregate" for b in benches)
        for b in benches:
            if b.get("error_occurred"):
                continue
            if has_agg:
                if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
                    continue
            elif b.get("run_type", "iteration") != "iteration":
                continue
            name = b.get("run_name", b["name"])
            if name.startswith("clock/"):
                ghz.append(b["ghz"])
                continue
            unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            times[name].append(b["cpu_time"] * unit)
    med = {k: statistics.median(v) for k, v in times.items()}
    return med, (statistics.median(ghz) if ghz else None)


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def map_tables(med, ghz):
    out = []
    kernels = collections.OrderedDict()
    for name in med:
        parts = name.split("/")
        if parts[0] != "map":
            continue
        _, kernel, impl, n = parts
        kernels.setdefault(kernel, collections.OrderedDict()).setdefault(int(n), {})[impl] = med[name]
    for kernel, rows in kernels.items():
        lanes = LANES.get(kernel, 16)
        out.append(f"### {kernel}\n")
        out.append(
            "Time per call in ns (median); e/c = elements per cycle of simdgen.avx512 at "
            f"{ghz:.2f} GHz; ratios = peer time / simdgen time, for the avx512 variant called "
            "directly / the dispatched entry point (above 1: simdgen faster).\n")
        impls = ["simdgen", "simdgen.avx512"]
        extra = [i for i in next(iter(rows.values())) if i.startswith("simdgen") and i not in impls]
        head = ["n", "simdgen", "simdgen.avx512", "e/c"] + [f"vs {p}" for p in PEERS] + extra
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        summary = {p: {"min": (9e9, None), "small_min": (9e9, None), "small_fail": []} for p in PEERS}
        for n, r in sorted(rows.items()):
            a, d = r.get("simdgen.avx512"), r.get("simdgen")
            cells = [str(n), f"{d:.2f}" if d else "-", f"{a:.2f}" if a else "-",
                     f"{n / (a * ghz):.2f}" if a and ghz else "-"]
            for p in PEERS:
                t = r.get(p)
                if t is None or a is None or d is None:
                    cells.append("-")
                    continue
                ra, rd = t / a, t / d
                cells.append(f"{ra:.2f} / {rd:.2f}")
                worst = min(ra, rd)
                s = summary[p]
                if worst < s["min"][0]:
                    s["min"] = (worst, n)
                if n < 64 and n % lanes != 0:
                    if worst < s["small_min"][0]:
                        s["small_min"] = (worst, n)
                    if worst < 1.3:
                        s["small_fail"].append(n)
            for e in extra:
                cells.append(f"{r[e]:.2f}" if e in r else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out.append(f"Goal check for {kernel} (worse of direct/dispatched; lanes = {lanes}):\n")
        out.append("| peer | never slower (min ratio, at n) | min ratio n < 64, n % lanes != 0 | sizes below 1.3x |")
        out.append("|---|---|---|---|")
        for p in PEERS:
            s = summary[p]
            if s["min"][1] is None:
                continue
            ok = "met" if s["min"][0] >= SLOWER_TOLERANCE else "NOT met"
            fails = s["small_fail"]
            out.append(
                f"| {p} | {ok}: {s['min'][0]:.2f} at n={s['min'][1]} | {s['small_min'][0]:.2f} at "
                f"n={s['small_min'][1]} | {len(fails)} of {sum(1 for n in rows if n < 64 and n % lanes)}"
                f"{': ' + ','.join(map(str, fails)) if fails else ''} |")
        out.append("")
    return out


def gather_tables(med, ghz):
    out = []
    by_stride = collections.OrderedDict()
    methods = []
    for name in med:
        parts = name.split("/")
        if parts[0] != "gather":
            continue
        _, method, s, n = parts
        if method not in methods:
            methods.append(method)
        by_stride.setdefault(int(s[1:]), collections.OrderedDict()).setdefault(int(n), {})[method] = med[name]
    if not by_stride:
        return out
    out.append("### y[i] = x[i*s] * 2: elements per cycle (higher is better)\n")
    head = ["s", "n"] + methods + ["best", "best / scalar"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for s, rows in sorted(by_stride.items()):
        for n, r in sorted(rows.items()):
            cells = [str(s), str(n)]
            for m in methods:
                cells.append(f"{n / (r[m] * ghz):.2f}" if m in r else "-")
            best = min(r, key=r.get)
            cells.append(best)
            cells.append(f"{r['scalar'] / r[best]:.2f}" if "scalar" in r else "-")
            out.append("| " + " | ".join(cells) + " |")
    out.append("")
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    med, ghz = load(sys.argv[1:])
    if ghz is None:
        sys.exit("no clock/dependent_add_chain result in the input")
    print(f"Measured clock: {ghz:.2f} GHz (dependent add chain).\n")
    print("\n".join(map_tables(med, ghz) + gather_tables(med, ghz)))


if __name__ == "__main__":
    main()
