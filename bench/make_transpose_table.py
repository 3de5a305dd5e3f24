#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables from simdgen_bench_transpose JSON output.

Usage: make_transpose_table.py [--object FILE.o ...] RESULTS.json [MORE.json ...] > tables.md

Benchmarks are "transpose/<rows>x<cols>[.u8|.u16]/<impl>" (bench/bench_transpose.cpp;
no suffix: f32).
With --benchmark_repetitions the median CPU time of each case is used; with
several files (runs) a case's figure is the median of the runs' medians, and
"spread" is (max - min) / median of those per-run figures. Cycles use the
measured clock (clock/dependent_add_chain, median over runs), not the OS's
nominal frequency. Bytes = the matrix's bytes (each read once, written once).

Ratios are peer time / simdgen time: above 1 means simdgen is faster.

--object FILE.o (repeatable): also count, with objdump, the shuffles
(vunpck*, vshuf*, vperm*, vinsert*) of every function in FILE.o that has some,
with cycles per tile measured for the functions benchmarked as a tile.
"""
import argparse
import collections
import json
import re
import statistics
import subprocess

# The generated entry points ratios are taken against, per size (first found).
SUBJECTS = {"8x8": ["simdgen_8x8.avx2", "simdgen.avx2", "simdgen"]}
DEFAULT_SUBJECTS = ["simdgen_16x16", "simdgen", "simdgen.avx512"]
# Row and table order (the JSON follows the random interleaving); others follow.
SIZE_ORDER = ["16x16", "8x8", "1000x1000", "1024x1024", "2048x2048", "4096x1", "1x4096", "1000x1000.u16",
              "1024x1024.u16", "1000x1000.u8", "1024x1024.u8"]
IMPL_ORDER = ["simdgen_8x8.avx2", "simdgen_16x16", "simdgen_16x16.avx512", "simdgen_16x16_half_rows.avx512",
              "simdgen_16x16.avx2", "simdgen_16x16_half_rows.avx2", "simdgen_16x16.scalar",
              "simdgen", "simdgen.avx512", "simdgen_half_rows.avx512", "simdgen.avx2",
              "simdgen_half_rows.avx2", "simdgen_cached.avx512", "simdgen_cached.avx2", "simdgen.scalar", "hand.shuf64",
              "hand.shuf48", "hand.avx2", "hand.tiled64", "plain.clang19", "plain.gcc12", "eigen",
              "memcpy", "simdgen_in_place", "simdgen_in_place.avx512", "simdgen_in_place.avx2",
              "plain_in_place.clang19", "plain_in_place.gcc12"]
# Functions of the counted objects -> the benchmark that times them as one tile.
TILE_CASES = {
    "transpose_16x16_f32_avx512": "transpose/16x16/simdgen_16x16.avx512",
    "transpose_16x16_f32_avx2": "transpose/16x16/simdgen_16x16.avx2",
    "transpose_8x8_f32_avx2": "transpose/8x8/simdgen_8x8.avx2",
    "simdgen_bench::hand_transpose_16x16_f32_shuf64(float const*, float*)": "transpose/16x16/hand.shuf64",
    "simdgen_bench::hand_transpose_16x16_f32_shuf48(float const*, float*)": "transpose/16x16/hand.shuf48",
    "simdgen_bench::hand_transpose_8x8_f32_avx2(float const*, float*)": "transpose/8x8/hand.avx2",
}


def load(paths):
    runs = collections.defaultdict(list)  # name -> [ns per call], one per run
    ghz, context = [], None
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        context = context or doc.get("context", {})
        benches = doc["benchmarks"]
        has_agg = any(b.get("run_type") == "aggregate" for b in benches)
        for b in benches:
            if b.get("error_occurred"):
                continue
            if has_agg and (b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median"):
                continue
            name = b.get("run_name", b["name"])
            if name.startswith("clock/"):
                ghz.append(b["ghz"])
                continue
            unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            runs[name].append(b["cpu_time"] * unit)
    if not ghz:
        raise SystemExit("no clock/dependent_add_chain result in the input")
    return runs, statistics.median(ghz), ghz, context


def tables(runs, ghz):
    med = {k: statistics.median(v) for k, v in runs.items()}
    groups = {}  # size -> {impl: ns}
    for name, ns in med.items():
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == "transpose":
            groups.setdefault(parts[1], {})[parts[2]] = ns

    def rank(order, key):
        return (order.index(key), key) if key in order else (len(order), key)

    groups = {size: dict(sorted(rows.items(), key=lambda kv: rank(IMPL_ORDER, kv[0])))
              for size, rows in sorted(groups.items(), key=lambda kv: rank(SIZE_ORDER, kv[0]))}
    out = []
    for size, rows in groups.items():
        shape, _, dtype = size.partition(".")
        dtype = dtype or "f32"
        r, c = (int(x) for x in shape.split("x"))
        nbytes = r * c * {"f32": 4, "u16": 2, "u8": 1}[dtype]
        subjects = [s for s in SUBJECTS.get(size, DEFAULT_SUBJECTS) if s in rows]
        out.append(f"### {shape} {dtype} ({nbytes} bytes)\n")
        head = ["implementation", "ns/call", "bytes/cycle", "cycles/call", "cycles/256 elements",
                "spread"] + [f"time / {s}" for s in subjects]
        out.append("| " + " | ".join(head) + " |")
        out.append("|---" + "|---:" * (len(head) - 1) + "|")
        for impl, ns in rows.items():
            v = runs[f"transpose/{size}/{impl}"]
            spread = f"{100 * (max(v) - min(v)) / ns:.0f}%" if len(v) > 1 else "-"
            cyc = ns * ghz
            cells = [impl, f"{ns:.1f}", f"{nbytes / cyc:.2f}", f"{cyc:.0f}",
                     f"{cyc * 256 / (r * c):.1f}", spread]
            cells += [f"{ns / rows[s]:.2f}" for s in subjects]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return out


def shuffle_table(objects, med, ghz):
    """Shuffles per function of each object, from objdump -d -C."""
    counts = collections.OrderedDict()  # function -> Counter
    for obj in objects:
        text = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", obj],
                              check=True, capture_output=True, text=True).stdout
        fn = None
        for line in text.splitlines():
            m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
            if m:
                fn = m.group(1)
                counts.setdefault(fn, collections.Counter())
                continue
            ins = line.split("\t")
            if fn is None or len(ins) < 2 or not ins[1].strip():
                continue
            mnemonic = ins[1].split()[0]
            c = counts[fn]
            c["instructions"] += 1
            for cls in ("vunpck", "vshuf", "vperm", "vinsert"):
                if mnemonic.startswith(cls):
                    c[cls] += 1
            # a vector register moved to or from the stack: a spill
            if re.search(r"[xyz]mm", ins[1]) and re.search(r"\(%r[sb]p\)", ins[1]):
                c["spills"] += 1
    out = ["### Shuffles per function (objdump)\n",
           "| function | instructions | vunpck | vshuf | vperm | vinsert | vector spills | "
           "cycles per tile (measured) | shuffles per cycle |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for fn, c in counts.items():
        shuffles = c["vunpck"] + c["vshuf"] + c["vperm"] + c["vinsert"]
        if not shuffles:
            continue
        case = TILE_CASES.get(fn)
        cyc = med[case] * ghz if case in med else None
        out.append(f"| `{fn}` | {c['instructions']} | {c['vunpck']} | {c['vshuf']} | "
                   f"{c['vperm']} | {c['vinsert']} | {c['spills']} | "
                   f"{f'{cyc:.1f}' if cyc else '-'} | {f'{shuffles / cyc:.2f}' if cyc else '-'} |")
    out.append("")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--object", action="append", default=[], help="object file to count shuffles in")
    ap.add_argument("results", nargs="+", help="simdgen_bench_transpose JSON output(s)")
    args = ap.parse_args()
    runs, ghz, all_ghz, context = load(args.results)
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"Date: {context.get('date', '?')}; {len(args.results)} run(s); host load "
          f"{', '.join(str(x) for x in context.get('load_avg', []))} at the start of the first.")
    print(f"Measured clock: {ghz:.2f} GHz (dependent add chain; runs: "
          f"{', '.join(f'{g:.2f}' for g in all_ghz)}). Cycles and bytes/cycle use it.")
    print("Ratios: time / simdgen time (above 1: simdgen faster).\n")
    print("\n".join(tables(runs, ghz)))
    if args.object:
        print("\n".join(shuffle_table(args.object, med, ghz)))


if __name__ == "__main__":
    main()
