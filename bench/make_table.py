#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn simdgen_bench JSON output into the Markdown results table.

Usage: make_table.py RESULTS.json > table.md

Benchmark names are "<kernel>/<impl>/<rows>x<cols>" (see bench/harness.cpp)
plus "read_bw/<isa>/<KiB>KiB" for the read-bandwidth reference. Baselines are
picked by impl name: "plain.clang19", the fastest impl starting "hwy" and the fastest
hand-written intrinsics loop ("hand").
With --benchmark_repetitions the medians are used.

argmax benchmarks (bench/bench_arg.cpp) are "argmax_<T>/<impl>/<data>/<n>" and
get their own section: baselines "plain.clang19" and the "sum_bw.*" row (a
vectorised sum over the same array) of the same (kernel, data, n).
"""
import datetime
import json
import sys

L2_REFERENCE = ("read_bw/avx512/192KiB", "read_bw/avx2/192KiB")
L1_REFERENCE = ("read_bw/avx512/16KiB", "read_bw/avx2/16KiB")
CLANG_BASELINE = "plain.clang19"


def machine_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def load(path):
    with open(path) as f:
        doc = json.load(f)
    benches = doc["benchmarks"]
    has_aggregates = any(b.get("run_type") == "aggregate" for b in benches)
    results = {}  # run_name -> counters, in file order
    for b in benches:
        if has_aggregates:
            if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
                continue
        elif b.get("run_type", "iteration") != "iteration":
            continue
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        if "ghz" in b:
            results[name] = b["ghz"]
        elif "bytes_per_ns" in b:
            results[name] = (b["bytes_per_ns"], b["bytes_per_cycle"])
    return doc.get("context", {}), results, has_aggregates


def first(results, names):
    for n in names:
        if n in results:
            return n, results[n]
    return None, None


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    context, results, medians = load(argv[1])

    clock = results.get("clock/dependent_add_chain")
    l2_name, l2 = first(results, L2_REFERENCE)
    l1_name, l1 = first(results, L1_REFERENCE)

    # Group kernel rows by (kernel, size), keeping the benchmark's order.
    groups = {}
    for name, value in results.items():
        parts = name.split("/")
        if parts[0] in ("read_bw", "clock") or len(parts) != 3:
            continue
        kernel, impl, size = parts
        groups.setdefault((kernel, size), []).append((impl, value))

    ghz = float(context.get("cycles_per_second_used_for_bytes_per_cycle", 0)) / 1e9
    print(f"Machine: {machine_name()}, {context.get('num_cpus', '?')} cores")
    print(f"Date: {context.get('date', datetime.datetime.now().isoformat())}")
    print(f"Highway target: {context.get('highway_best_target', '?')}; "
          f"bytes/cycle use the nominal {ghz:.3f} GHz reported by the OS"
          + ("; figures are medians of repetitions" if medians else ""))
    if clock:
        print(f"Measured core clock: {clock:.2f} GHz (dependent-add chain); "
              f"bytes per actual cycle = bytes/ns / {clock:.2f}")
    if l2:
        print(f"L2 read reference ({l2_name}): {l2[0]:.1f} bytes/ns, "
              f"{l2[1]:.1f} bytes/cycle")
    if l1:
        print(f"L1 read reference ({l1_name}): {l1[0]:.1f} bytes/ns, "
              f"{l1[1]:.1f} bytes/cycle")
    print()
    print("| kernel | size | implementation | bytes/ns | bytes/cycle "
          "| % of L2 read | vs clang-19 loop | vs best Highway | vs best hand-written |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")

    def ratio(x, base):
        return f"{x / base:.2f}x" if base else "n/a"

    for (kernel, size), rows in groups.items():
        by_impl = dict(rows)
        clang = by_impl.get(CLANG_BASELINE, (None,))[0]
        hwy = [v[0] for i, v in rows if i.startswith("hwy")]
        best_hwy = max(hwy) if hwy else None
        hand = [v[0] for i, v in rows if i.startswith("hand")]
        best_hand = max(hand) if hand else None
        for impl, (bpn, bpc) in rows:
            pct = f"{100 * bpn / l2[0]:.0f}%" if l2 else "n/a"
            print(f"| {kernel} | {size} | {impl} | {bpn:.2f} | {bpc:.2f} | {pct} "
                  f"| {ratio(bpn, clang)} | {ratio(bpn, best_hwy)} | {ratio(bpn, best_hand)} |")

    print_argmax_section(argv[1], context)


def load_argmax(path):
    """argmax rows: {(kernel, data, n): [(impl, counters)]}, in file order."""
    with open(path) as f:
        benches = json.load(f)["benchmarks"]
    has_aggregates = any(b.get("run_type") == "aggregate" for b in benches)
    groups = {}
    for b in benches:
        if has_aggregates:
            if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
                continue
        elif b.get("run_type", "iteration") != "iteration":
            continue
        if b.get("error_occurred") or "elements_per_ns" not in b:
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) != 4 or not parts[0].startswith("argmax"):
            continue
        kernel, impl, data, n = parts
        groups.setdefault((kernel, data, n), []).append((impl, b))
    return groups


def print_argmax_section(path, context):
    groups = load_argmax(path)
    if not groups:
        return
    print()
    print("### argmax")
    print()
    variants = ", ".join(f"{k[:-len('_variant')]}: {v}" for k, v in sorted(context.items())
                         if k.startswith("argmax_") and k.endswith("_variant"))
    print("First index of the maximum over n elements; `random` (fixed seed) and "
          "`increasing` (every element a new maximum: the worst case). "
          "elements/cycle use the nominal clock, as above. "
          "\"% of sum bandwidth\" is relative to `sum_bw.avx512`, an AVX-512 sum "
          "with eight accumulators over the same array"
          + (f". Dispatcher picks {variants}." if variants else "."))
    print()
    print("| kernel | data | n | impl | elements/ns | elements/cycle "
          "| vs clang-19 loop | % of sum bandwidth |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    for (kernel, data, n), rows in groups.items():
        by_impl = dict(rows)
        clang = by_impl.get(CLANG_BASELINE, {}).get("elements_per_ns")
        bw = [b["elements_per_ns"] for i, b in rows if i.startswith("sum_bw")]
        for impl, b in rows:
            epn = b["elements_per_ns"]
            vs_clang = f"{epn / clang:.2f}x" if clang else "n/a"
            pct = f"{100 * epn / bw[0]:.0f}%" if bw else "n/a"
            print(f"| {kernel} | {data} | {n} | {impl} | {epn:.2f} "
                  f"| {b['elements_per_cycle']:.2f} | {vs_clang} | {pct} |")


if __name__ == "__main__":
    main(sys.argv)
