#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables from simdgen_bench_rows (Google Benchmark JSON).

Usage: make_rows_table.py [--summary] BENCH.json [MORE_BENCH.json ...] > tables.md

Benchmarks are "rows/<case>/<impl>/<shape>" (bench/rows/bench_rows.cpp). With
--benchmark_repetitions the median of each case is used; several files (runs) give the median of
the runs' medians. Bytes per cycle = bytes per ns (the least traffic the case needs: inputs read
once, outputs written once) / GHz, the GHz from the clock row (clock/dependent_add_chain, the
median over runs). Bytes per cycle are shown where that traffic exceeds the L1 data cache
(the context's l1d_bytes): there the memory hierarchy, not the core, may set the pace.

Without --summary: one table per case, a row per implementation, the fastest of each shape in
bold. With --summary: a row per case and shape: simdgen (the dispatcher), the fastest peer that is
not simdgen, and the ratio simdgen / best peer (above 1: simdgen is faster); then, for softmax,
what fusing the three passes in one kernel gains over three separate simdgen kernels.
"""
import argparse
import collections
import json
import statistics

CASE_TITLES = {
    "dot_f32": "dot product, f32",
    "l2sq_f32": "squared L2 distance, f32",
    "cos_f32": "cosine similarity, f32 (dot, |a|^2, |b|^2)",
    "dot_i8": "dot product, i8 into i32",
    "hamming_u64": "Hamming distance, u64 words (sum of popcount(a ^ b))",
    "query_dot_f32": "one query against 10,000 rows: inner product, f32",
    "query_l2sq_f32": "one query against 10,000 rows: squared L2, f32",
    "softmax_f32": "softmax per row, f32",
    "rmsnorm_f32": "RMSNorm per row, f32",
    "layernorm_f32": "LayerNorm per row, f32",
    "quantize_i8": "dynamic int8 quantization per row (f32 in, i8 and row amax out)",
}


def load(paths):
    """{name: [per-run median el/ns]}, {name: [per-run B/ns]}, {name: working set}, errors, GHz, context."""
    rate, bw, ws, errors, ghz = (collections.defaultdict(list), collections.defaultdict(list), {}, {}, [])
    context = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        context = doc.get("context", context)
        benches = doc["benchmarks"]
        has_agg = any(b.get("run_type") == "aggregate" for b in benches)
        for b in benches:
            name = b.get("run_name", b["name"])
            if b.get("error_occurred"):
                errors[name] = b.get("error_message", "error")
                continue
            if has_agg:
                if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
                    continue
            elif b.get("run_type", "iteration") != "iteration":
                continue
            if name.startswith("clock/"):
                ghz.append(b["ghz"])
                continue
            rate[name].append(b["elements_per_ns"])
            bw[name].append(b["bytes_per_ns"])
            ws[name] = b["working_set_bytes"]
    return rate, bw, ws, errors, (statistics.median(ghz) if ghz else None), context


def shape_key(shape):
    """Sort key: vectors by n, matrices by rows then cols."""
    parts = [int(p) for p in shape.split("x")]
    return (len(parts), parts)


def fmt_shape(shape):
    return " x ".join(f"{int(p):,}" for p in shape.split("x"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("bench", nargs="+")
    a = ap.parse_args()
    rate, bw, ws, errors, ghz, ctx = load(a.bench)
    l1 = int(ctx.get("l1d_bytes", "32768")) if str(ctx.get("l1d_bytes", "")).isdigit() else 32768

    # case -> impl -> shape -> (el/ns, B/cycle or None)
    cases = collections.OrderedDict((k, collections.OrderedDict()) for k in CASE_TITLES)
    spread = []
    for name, values in rate.items():
        _, kase, impl, shape = name.split("/")
        el = statistics.median(values)
        if len(values) > 1:
            spread.append((max(values) - min(values)) / el)
        bpc = statistics.median(bw[name]) / ghz if ghz and ws.get(name, 0) > l1 else None
        cases.setdefault(kase, collections.OrderedDict()).setdefault(impl, {})[shape] = (el, bpc)
    for name in errors:
        _, kase, impl, shape = name.split("/")
        cases.setdefault(kase, collections.OrderedDict()).setdefault(impl, {})[shape] = None

    runs = len(a.bench)
    ghz_s = f"{ghz:.2f} GHz" if ghz else "? GHz"
    print(f"CPU: {ctx.get('cpu_model_name', '?')} (family {ctx.get('cpu_family', '?')}, model "
          f"{ctx.get('cpu_model', '?')}); measured clock {ghz_s} (clock/dependent_add_chain); "
          f"L1d {l1 // 1024} KiB; {runs} run(s), each the median of its repetitions"
          + (f"; runs differ by {100 * statistics.median(spread):.1f}% (median over cases), "
             f"{100 * sorted(spread)[int(0.9 * (len(spread) - 1))]:.1f}% at the 90th percentile"
             if spread else "") + ".\n")

    if a.summary:
        summary(cases)
        return

    for kase, impls in cases.items():
        if not impls:
            continue
        shapes = sorted({s for per in impls.values() for s in per}, key=shape_key)
        best = {s: max((per[s][0] for per in impls.values() if per.get(s)), default=None) for s in shapes}
        out_of_l1 = {s: any(per.get(s) and per[s][1] is not None for per in impls.values()) for s in shapes}
        print(f"### {CASE_TITLES.get(kase, kase)}\n")
        head, sep = "| implementation |", "| --- |"
        for s in shapes:
            head += f" el/ns {fmt_shape(s)} |"
            sep += " ---: |"
            if out_of_l1[s]:
                head += " B/cycle |"
                sep += " ---: |"
        print(head)
        print(sep)
        order = sorted(impls, key=lambda i: (not i.startswith("simdgen"), i.startswith("plain"), i))
        for impl in order:
            row = f"| {impl} |"
            for s in shapes:
                v = impls[impl].get(s, "absent")
                if v == "absent":
                    row += " |" + (" |" if out_of_l1[s] else "")
                    continue
                if v is None:
                    row += " wrong result |" + (" |" if out_of_l1[s] else "")
                    continue
                el = f"{v[0]:.3f}" if v[0] < 10 else f"{v[0]:.2f}"
                row += f" **{el}** |" if v[0] == best[s] else f" {el} |"
                if out_of_l1[s]:
                    row += f" {v[1]:.2f} |" if v[1] is not None else " |"
            print(row)
        print()


def summary(cases):
    print("| case | shape | simdgen el/ns | best peer | peer el/ns | simdgen / best peer |")
    print("| --- | --- | ---: | --- | ---: | ---: |")
    for kase, impls in cases.items():
        if "simdgen" not in impls:
            continue
        for s in sorted(impls["simdgen"], key=shape_key):
            mine = impls["simdgen"].get(s)
            peers = [(per[s][0], i) for i, per in impls.items()
                     if not i.startswith("simdgen") and per.get(s)]
            if not mine or not peers:
                continue
            b = max(peers)
            print(f"| {kase} | {fmt_shape(s)} | {mine[0]:.3f} | {b[1]} | {b[0]:.3f} | {mine[0] / b[0]:.2f} |")
    sm = cases.get("softmax_f32", {})
    if "simdgen" in sm and "simdgen.unfused" in sm:
        print("\nSoftmax: one fused kernel against three separate simdgen kernels (ratios of el/ns; above 1: "
              "the fused kernel is faster).\n")
        print("| shape | fused | fused, reciprocal | unfused (whole matrix per kernel) | unfused (3 calls per row) | "
              "fused / unfused | fused, reciprocal / unfused |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for s in sorted(sm["simdgen"], key=shape_key):
            get = lambda i: sm.get(i, {}).get(s)
            f, r, u, w = get("simdgen"), get("simdgen.recip"), get("simdgen.unfused"), get("simdgen.unfused_rowwise")
            if not (f and u):
                continue
            cell = lambda v: f"{v[0]:.3f}" if v else "-"
            print(f"| {fmt_shape(s)} | {cell(f)} | {cell(r)} | {cell(u)} | {cell(w)} | {f[0] / u[0]:.2f} | "
                  + (f"{r[0] / u[0]:.2f} |" if r else "- |"))


if __name__ == "__main__":
    main()
