#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables from simdgen_bench_math (JSON) and simdgen_bench_math_accuracy (--json).

Usage: make_math_table.py --accuracy ACCURACY.json BENCH.json [MORE_BENCH.json ...] > tables.md

Benchmarks are "math/<fn>_<dtype>/<impl>/<n>" (bench/math/bench_math.cpp). With
--benchmark_repetitions the median of each case is used; several files (runs) give the median of
the runs' medians. Elements per cycle = elements per ns / GHz, the GHz from the clock row
(clock/dependent_add_chain, the median over runs), not the OS's nominal frequency.

"vs SLEEF" is the peer's elements per cycle over the best SLEEF variant's (the fastest of the
dispatcher, avx512f and avx2) in the peer's accuracy class, at the same size: class 1 = SLEEF u10;
class 4 = SLEEF u10 or u35, whichever is faster (u10 is within 4 ULP too; SLEEF 3.5 has no u35
exp). A peer's class is the bound it documents; Eigen documents none, so its measured error
places it. Above 1: faster than SLEEF.
"""
import argparse
import collections
import json
import statistics

FAMILY_ORDER = ["simdgen", "sleef", "libmvec", "hwy", "eigen", "plain"]


def load_bench(paths):
    times = collections.defaultdict(list)
    ghz = []
    context = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        context = doc.get("context", context)
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
            times[name].append(b["elements_per_ns"])
    rate = {k: statistics.median(v) for k, v in times.items()}
    return rate, (statistics.median(ghz) if ghz else None), context


def number(v):
    return float(v)  # the accuracy JSON writes infinities as "inf"


def fmt_ulp(v):
    v = number(v)
    if v != v or v < 0:
        return "-"
    if v == float("inf"):
        return "inf"
    if v >= 1000:
        return f"{v:.3g}"
    return f"{v:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accuracy", required=True)
    ap.add_argument("bench", nargs="+")
    a = ap.parse_args()
    rate, ghz, context = load_bench(a.bench)
    with open(a.accuracy) as f:
        acc_rows = json.load(f)
    acc = {(r["fn"], r["dtype"], r["impl"]): r for r in acc_rows}
    listed = [(r["fn"], r["dtype"], r["impl"]) for r in acc_rows]  # peers_math.cpp's order

    # (fn, dtype) -> impl -> n -> elements per cycle
    groups = collections.OrderedDict()
    for name, r in rate.items():
        _, fd, impl, n = name.split("/")
        fn, dtype = fd.split("_")
        groups.setdefault((fn, dtype), {}).setdefault(impl, {})[int(n)] = r / ghz

    print(f"CPU: {context.get('cpu_model_name', '?')} (family {context.get('cpu_family', '?')}, "
          f"model {context.get('cpu_model', '?')}); measured clock {ghz:.2f} GHz "
          f"(clock/dependent_add_chain); simdgen dispatches to {context.get('simdgen_dispatch_f32_exp', '?')}; "
          f"Highway static target {context.get('highway_static_target', '?')}; "
          f"SLEEF {context.get('sleef_version', '?')}; {len(a.bench)} run(s).\n")

    for (fn, dtype) in sorted(groups):
        impls = groups[(fn, dtype)]
        sizes = sorted({n for per in impls.values() for n in per})

        def cls_label(impl):
            r = acc.get((fn, dtype, impl))
            if r and r["documented_ulp"]:
                return r["documented_ulp"], str(r["documented_ulp"])
            m = number(r["max_ulp"]) if r else float("inf")
            if m <= 1:
                return 1, "1 (measured)"
            if m <= 4:
                return 4, "4 (measured)"
            return 4, "none (measured > 4; compared with class 4)"

        def cls(impl):
            return cls_label(impl)[0]

        best = {}
        for c in (1, 4):
            for n in sizes:
                cands = [(per[n], impl) for impl, per in impls.items()
                         if impl.startswith("sleef.") and n in per and acc.get((fn, dtype, impl))
                         and acc[(fn, dtype, impl)]["documented_ulp"] <= c]
                best[(c, n)] = max(cands) if cands else None
        print(f"### {fn} {dtype}\n")
        head = "| peer | documented ULP | class |"
        sep = "| --- | --- | --- |"
        for n in sizes:
            head += f" el/cycle n={n:,} | vs best SLEEF |"
            sep += " ---: | ---: |"
        head += " max ULP | at x | max ULP, no subnormal in or out | wrong special values |"
        sep += " ---: | ---: | ---: | ---: |"
        print(head)
        print(sep)
        order = [i for (f, d, i) in listed if (f, d) == (fn, dtype) and i in impls]
        order += [i for i in impls if i not in order]
        for impl in order:
            r = acc.get((fn, dtype, impl))
            c = cls(impl)
            doc = str(r["documented_ulp"]) if r and r["documented_ulp"] else "-"
            row = f"| {impl} | {doc} | {cls_label(impl)[1]} |"
            for n in sizes:
                v = impls[impl].get(n)
                b = best.get((c, n))
                if v is None:
                    row += " | |"
                    continue
                row += f" {v:.3f} | {v / b[0]:.2f} |" if b else f" {v:.3f} | - |"
            if r:
                row += (f" {fmt_ulp(r['max_ulp'])} | {number(r['max_ulp_x']):.9g} | "
                        f"{fmt_ulp(r['max_ulp_normal'])} | {r['wrong']} |")
            else:
                row += " (not measured) | | | |"
            print(row)
        print()
        for c in (1, 4):
            parts = [f"{best[(c, n)][1]} ({best[(c, n)][0]:.3f}) at n={n:,}" for n in sizes if best.get((c, n))]
            if parts:
                print(f"Best SLEEF in class {c}: " + ", ".join(parts) + ".  ")
        print()


if __name__ == "__main__":
    main()
