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
import math
import statistics
import sys

PEERS = ["plain.clang19", "plain.gcc12", "hwy", "hwy.avx3_dl"]
# What the goal is checked for: the generated kernel (avx512 variant called
# directly, dispatched entry point) and the hand-written proposal
# (bench/map_proposal.cpp) in the shape suggested for the generator.
SUBJECTS = ["simdgen.avx512", "simdgen", "proposal.avx512", "proposal"]
# Vector width in elements of each map kernel's AVX-512 variant.
LANES = {"times_two": 16, "axpby_fma_f32": 16, "absdiff_i16": 32, "u8_to_f32_fma": 16,
         "f32_to_u8_nearest": 16}
SLOWER_TOLERANCE = 0.95  # "never slower" allows 5% for run-to-run noise
# Column order of the gather table (methods not listed follow in file order).
GATHER_METHODS = ["scalar", "autovec512", "insert256", "insert512", "gather256", "gather512",
                  "gather512m", "perm512"]


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


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def map_tables(med, ghz):
    out = []
    floor = med.get("map/call_floor/empty/0")
    if floor is not None:
        out.append(f"Harness floor (an empty kernel called the same way): {floor:.2f} ns "
                   f"= {floor * ghz:.1f} cycles per call; 'net' ratios subtract it from both times.\n")
    kernels = collections.OrderedDict()
    for name in med:
        parts = name.split("/")
        if parts[0] != "map":
            continue
        _, kernel, impl, n = parts
        if kernel == "call_floor":
            continue
        kernels.setdefault(kernel, collections.OrderedDict()).setdefault(int(n), {})[impl] = med[name]
    for kernel, rows in kernels.items():
        lanes = LANES.get(kernel, 16)
        out.append(f"### {kernel}\n")
        out.append(
            "Time per call in ns (median); e/c = elements per cycle of simdgen.avx512 at "
            f"{ghz:.2f} GHz; ratios = peer time / simdgen time, for the avx512 variant called "
            "directly / the dispatched entry point (above 1: simdgen faster); the last columns: "
            "time per call of the other variants, of the scalar-tail twin (times_two) and of the "
            "hand-written proposal (bench/map_proposal.cpp).\n")
        impls = ["simdgen", "simdgen.avx512"]
        extra = [i for i in next(iter(rows.values()))
                 if i.startswith(("simdgen", "proposal")) and i not in impls]
        head = ["n", "simdgen", "simdgen.avx512", "e/c"] + [f"vs {p}" for p in PEERS] + extra
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
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
            for e in extra:
                cells.append(f"{r[e]:.2f}" if e in r else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out.append(f"Goal check for {kernel} (lanes = {lanes}): ratio = peer time / subject time; "
                   "geomean = geometric mean of the ratios over the sizes named; min = the lowest "
                   "single ratio (noise included) and its n. 'never slower' is judged on the "
                   f"geomeans (>= {SLOWER_TOLERANCE}), single sizes being too noisy.\n")
        out.append("| subject | peer | n < 64, n % lanes != 0: geomean | of those below 1.3x | "
                   "same, net of the floor: geomean | n >= 64: geomean | all n: min (at n) | never slower |")
        out.append("|---|---|---|---|---|---|---|---|")
        small = [n for n in rows if n < 64 and n % lanes]
        large = [n for n in rows if n >= 64]
        for subject in SUBJECTS:
            for p in PEERS:
                rs = {n: rows[n][p] / rows[n][subject] for n in rows
                      if p in rows[n] and subject in rows[n]}
                if not rs:
                    continue
                gs = geomean([rs[n] for n in small if n in rs])
                gl = geomean([rs[n] for n in large if n in rs])
                below = sum(1 for n in small if n in rs and rs[n] < 1.3)
                fl = floor or 0.0
                net = [(rows[n][p] - fl) / max(rows[n][subject] - fl, 1e-3) for n in small
                       if n in rs]
                gnet = f"{geomean(net):.2f}" if floor is not None else "-"
                n_min = min(rs, key=rs.get)
                ok = "yes" if min(gs, gl) >= SLOWER_TOLERANCE else "no"
                out.append(f"| {subject} | {p} | {gs:.2f} | {below} of {len(small)} | {gnet} | {gl:.2f} | "
                           f"{rs[n_min]:.2f} ({n_min}) | {ok} |")
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
    methods = [m for m in GATHER_METHODS if m in methods] + [m for m in methods if m not in GATHER_METHODS]
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
