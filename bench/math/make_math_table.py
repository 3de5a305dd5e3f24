#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables from simdgen_bench_math (JSON) and simdgen_bench_math_accuracy (--json).

Usage: make_math_table.py --accuracy ACCURACY.json [--summary] BENCH.json [MORE_BENCH.json ...] > tables.md

Benchmarks are "math/<fn>_<dtype>/<impl>/<n>" (bench/math/bench_math.cpp). With
--benchmark_repetitions the median of each case is used; several files (runs) give the median of
the runs' medians. Elements per cycle = elements per ns / GHz, the GHz from the clock row
(clock/dependent_add_chain, the median over runs), not the OS's nominal frequency.

"vs SLEEF" is the peer's elements per cycle over the best SLEEF variant's (the fastest of the
dispatcher, avx512f and avx2) in the peer's accuracy class, at the same size: class 1 = SLEEF u10;
class 4 = SLEEF u10 or u35, whichever is faster (u10 is within 4 ULP too; SLEEF 3.5 has no u35
exp). A peer's class is the bound it documents (2 or 3, some of Highway's: class 4); Eigen and the
sigmoid and gelu formulas document none, so their measured error places them. Above 1: faster
than SLEEF.

--summary prints instead one compact table (a row per function and dtype: simdgen's two tiers and
the fastest peer of each family at n = 4,096, with its largest error) and the issue's goals per
function: the 1-ULP tier against SLEEF u10, the 4-ULP tier against the fastest of SLEEF (u35, or
u10 where SLEEF has no u35), libmvec and Highway, in speed (both sizes) and measured error.
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


def fastest(impls, names, n):
    """(elements per cycle, impl) of the fastest of `names` measured at n, or None."""
    cands = [(impls[i][n], i) for i in names if i in impls and n in impls[i]]
    return max(cands) if cands else None


def summary(keys, groups, acc):
    n0, n1 = 4096, 1000000

    def err(fn, dtype, impl):
        r = acc.get((fn, dtype, impl))
        if not r:
            return "?"
        mark = "†" if r["wrong"] else ""
        return fmt_ulp(r["max_ulp"]) + mark

    def cell(fn, dtype, impls, names):
        b = fastest(impls, names, n0)
        return f"{b[0]:.3f} ({err(fn, dtype, b[1])})" if b else "-"

    def of(impls, prefix):
        return [i for i in impls if i == prefix or i.startswith(prefix + ".")]

    print("Elements per cycle at n = 4,096 (in parentheses: largest error in ULP over the accuracy "
          "tool's inputs; † = some special values wrong); each family's fastest variant.\n")
    print("| function | simdgen 1 ULP | simdgen 4 ULP | SLEEF u10 | SLEEF u35 | libmvec | Highway | Eigen | glibc loop |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for fn, dtype in keys:
        impls = groups[(fn, dtype)]
        sleef = [i for i in of(impls, "sleef")]
        row = [cell(fn, dtype, impls, ["simdgen.ulp1"]), cell(fn, dtype, impls, ["simdgen.ulp4"]),
               cell(fn, dtype, impls, [i for i in sleef if i.startswith("sleef.u10")]),
               cell(fn, dtype, impls, [i for i in sleef if i.startswith("sleef.u35")]),
               cell(fn, dtype, impls, of(impls, "libmvec")), cell(fn, dtype, impls, ["hwy"]),
               cell(fn, dtype, impls, ["eigen"]), cell(fn, dtype, impls, of(impls, "plain"))]
        print(f"| {fn} {dtype} | " + " | ".join(row) + " |")

    print("\nGoals (issue): the 1-ULP tier at least as fast as SLEEF u10, the 4-ULP tier at least as "
          "fast as the fastest of SLEEF (u35, else u10), libmvec and Highway, with an equal or smaller "
          "error. Ratios = simdgen / peer, n = 4,096 and 10^6.\n")
    print("| function | 1 ULP vs SLEEF u10 | error simdgen / SLEEF | holds | 4 ULP vs fastest peer | peer | error simdgen / peer | holds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for fn, dtype in keys:
        impls = groups[(fn, dtype)]

        def ulp(impl):
            r = acc.get((fn, dtype, impl))
            return number(r["max_ulp"]) if r else float("inf")

        def vs(mine, names):
            out, ok = [], True
            peer = fastest(impls, names, n0)
            if mine not in impls or not peer:
                return None
            for n in (n0, n1):
                b = fastest(impls, names, n)
                ratio = impls[mine][n] / b[0]
                ok &= ratio >= 1
                out.append(f"{ratio:.2f}")
            e_ok = ulp(mine) <= ulp(peer[1])
            return (" / ".join(out), peer[1], f"{fmt_ulp(ulp(mine))} / {err(fn, dtype, peer[1])}",
                    "yes" if ok and e_ok else ("speed: no" if not ok else "") + (", " if not ok and not e_ok else "")
                    + ("error: no" if not e_ok else ""))
        u10 = [i for i in of(impls, "sleef") if i.startswith("sleef.u10")]
        u35 = [i for i in of(impls, "sleef") if i.startswith("sleef.u35")]
        g1 = vs("simdgen.ulp1", u10)
        g4 = vs("simdgen.ulp4", (u35 or u10) + of(impls, "libmvec") + ["hwy"])
        c1 = f"{g1[0]} | {g1[2]} | {g1[3]}" if g1 else ("no 1-ULP tier | | " if "simdgen.ulp1" not in impls else "no SLEEF function | | ")
        c4 = f"{g4[0]} | {g4[1]} | {g4[2]} | {g4[3]}" if g4 else "- | | |"
        print(f"| {fn} {dtype} | {c1} | {c4} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accuracy", required=True)
    ap.add_argument("--summary", action="store_true")
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
        fn, dtype = fd.rsplit("_", 1)
        groups.setdefault((fn, dtype), {}).setdefault(impl, {})[int(n)] = r / ghz

    # Functions in peers_math.cpp's order (exp, exp2, ..., f32 before f64 within each).
    fn_order = list(dict.fromkeys(f for (f, _, _) in listed))
    keys = sorted(groups, key=lambda k: (fn_order.index(k[0]) if k[0] in fn_order else len(fn_order), k[1]))

    print(f"CPU: {context.get('cpu_model_name', '?')} (family {context.get('cpu_family', '?')}, "
          f"model {context.get('cpu_model', '?')}); measured clock {ghz:.2f} GHz "
          f"(clock/dependent_add_chain); simdgen dispatches to {context.get('simdgen_dispatch_f32_exp', '?')}; "
          f"Highway static target {context.get('highway_static_target', '?')}; "
          f"SLEEF {context.get('sleef_version', '?')}; {len(a.bench)} run(s).\n")
    if a.summary:
        summary(keys, groups, acc)
        return

    for (fn, dtype) in keys:
        impls = groups[(fn, dtype)]
        sizes = sorted({n for per in impls.values() for n in per})

        def cls_label(impl):
            r = acc.get((fn, dtype, impl))
            if r and r["documented_ulp"]:
                # Highway's 2 and 3 ULP functions are compared with class 4.
                return (1 if r["documented_ulp"] <= 1 else 4), str(1 if r["documented_ulp"] <= 1 else 4)
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
