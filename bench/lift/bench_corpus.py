#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Speed of the `simdgen lift` corpus: every rewritten function against its original (issue 11, "Measure").

For every file of tests/lift/corpus/ (see tests/lift/README.md for the corpus conventions), from a
snapshot of the corpus files and the simdgen binary copied to WORK/snapshot/ first (both may be
rebuilt or edited while the benchmark runs):

  1. `simdgen lift FILE -o WORK/NAME/specs [lift-args] -- -std=c11|c++17`: the remarks are checked
     against the file's `// expect:` lines with tests/lift/run_corpus.py's own checker, which gives
     the lift rate (loops lifted as expected / loops expected lifted) and the false lifts (a loop
     lifted that no expectation, or a `not lifted` one, asked for: must be 0).
  2. Files with lifted loops: a copy is rewritten with `simdgen lift --rewrite`, its kernels are
     generated with `simdgen generate`, and ONE Google Benchmark program is built per file:
       - the original function, clang -O3 -march=native (C: clang-19 -std=c11, C++: clang++-19
         -std=c++17), renamed with -DFUNC=FUNC__orig;
       - the rewritten function, clang -O2 without -march (as users build it), renamed
         -DFUNC=FUNC__lifted, linked with the generated kernels (clang++-19 -std=c++17 -O2, no
         -march: they pick AVX-512/AVX2/scalar at run time);
       - the benchmark main (clang++-19 -O2), linked with -lbenchmark -lpthread.
     Builds run in parallel (--jobs).
  3. The programs run one after the other (pinned with taskset to --cpu), each benchmark with
     --benchmark_min_time and --benchmark_repetitions (the median is reported), at every --sizes n
     (default 4096: L1-resident for every element type on a 48 KiB L1d; 65536: L2-resident).
     Before timing, each program calls both functions once per n and compares their results (a
     sanity check, not the differential test: that is run_corpus.py), and prints the variant each
     kernel dispatched to.

Inputs: one 64-byte aligned array per `const T*` parameter, random values of the element type
(integers: random bits over the whole type; floats: uniform in [-1, 1), and in [0.999, 1.001) for
files that lift a float product, so that the product neither overflows nor underflows into
denormals); the length `n`; every other scalar parameter gets the neutral start value of the loop
it seeds (add/or/xor: 0, mul: 1, and: all ones, max/argmax: the type's lowest value, min/argmin: its
highest, an index: 0), found by following `VAR = PARAM;` to the next `// expect: lifted` line;
every output pointer points at a scratch variable of its type.

The clock is measured as bench/clock.cpp does (a chain of 1000 dependent register adds = 1000
cycles), before and after the run; elements per cycle = n / (ns x GHz), with n counted once per
call even when the function loops over its array several times (bits_*, minmax_*).

Output: a Markdown table (file, lifted kernels, kernel variant, n, original ns, lifted ns,
speedup, elements/cycle of each), the geometric mean of the speedups per n (all files, and per
kind of kernel; a lifted loop nested in another `for` is labelled "inner loop: a call per row",
as the kernel is then called once per row), the lift rate and the false lifts; printed and
written to --out.

Usage (from the repository root; Python 3 standard library only):
  bench/lift/bench_corpus.py --out /tmp/lift_bench.md
  bench/lift/bench_corpus.py --only 'sum_*' --out /tmp/sum.md        # a subset
Options: --simdgen BIN (default build/generator/simdgen), --work DIR (default /tmp/simdgen-bench-lift),
--jobs N (builds in parallel, default 2), --sizes 4096,65536, --min-time 0.05, --repetitions 3,
--cpu 1 (taskset core; empty = no pinning), --cc clang-19, --cxx clang++-19, FILES (default
tests/lift/corpus/*).
"""
import argparse
import concurrent.futures
import fnmatch
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tests" / "lift"))
sys.dont_write_bytecode = True  # no __pycache__ in tests/lift
import run_corpus as rc  # noqa: E402  (the corpus reader and remark checker, not copied)

FLOAT_TYPES = ("float", "double")


# ----------------------------------------------------------------------------------------------
def run(cmd, timeout=600, env=None):
    return rc.run([str(c) for c in cmd], timeout=timeout, env=env)


def summary_of(remark_text):
    """`peak_lifted (reduce min i16 -> i16)` -> `reduce min i16` (same-type arrows dropped)."""
    m = rc.KERNEL_NAME_RE.match(remark_text)
    s = (m.group("summary") or "") if m else remark_text
    m2 = re.fullmatch(r"(.*?) (\w+) -> (\w+)", s)
    if m2 and m2.group(2) == m2.group(3):
        s = f"{m2.group(1)} {m2.group(2)}"
    return s


def inner_loops(cf, lifted_lines):
    """The lifted loops that sit inside another `for` (one kernel call per row): the `for` lines of
    the expectations, nested by indentation (the corpus is formatted)."""
    lines = rc.strip_comments(cf.text).split("\n")

    def indent(k):
        t = lines[k - 1]
        return len(t) - len(t.lstrip())

    inner = set()
    fors = sorted(cf.expectations)
    for ln in lifted_lines:
        for outer in (f for f in fors if f < ln and indent(f) < indent(ln)):
            between = [k for k in range(outer + 1, ln) if lines[k - 1].strip() and lines[k - 1].strip() != "}"]
            if all(indent(k) > indent(outer) for k in between):
                inner.add(ln)
    return inner


def op_of(summary):
    """`reduce add i8 -> i32` -> `add`, `arg_reduce argmax f32 first` -> `argmax`."""
    w = summary.split()
    return w[1] if len(w) > 1 else ""


def neutral_value(cf, param, kernel_summaries_by_line):
    """The start value a scalar parameter gets: neutral for the loop it seeds (see the docstring)."""
    name, base = param.name, param.base
    lines = rc.strip_comments(cf.text).split("\n")
    seeded_var, seed_line = None, None
    for k, line in enumerate(lines, start=1):
        m = re.search(r"\b(" + rc.IDENT + r")\s*=\s*" + re.escape(name) + r"\s*;", line)
        if m:
            seeded_var, seed_line = m.group(1), k
            break
    if seeded_var is None:
        return "0", "not a loop's start value"
    # An index: the variable takes the loop counter (`idx = i;`, `idx = keep ? idx : i;`).
    if re.search(r"\b" + re.escape(seeded_var) + r"\s*=[^;=]*\bi\s*;", cf.text):
        return "0", f"start index of `{seeded_var}`"
    later = sorted(line for line in kernel_summaries_by_line if line > seed_line)
    if not later:
        return "0", "no lifted loop after it"
    op = op_of(kernel_summaries_by_line[later[0]])
    t = base
    lim = f"std::numeric_limits<{t}>"
    values = {"add": "0", "or": "0", "xor": "0", "mul": "1", "and": f"({t})~0ull" if t not in FLOAT_TYPES else "0",
              "max": f"{lim}::lowest()", "argmax": f"{lim}::lowest()",
              "min": f"{lim}::max()", "argmin": f"{lim}::max()"}
    return f"({t})({values.get(op, '0')})", f"`{seeded_var}` of a {op}"


# ----------------------------------------------------------------------------------------------
# The benchmark program of one corpus file.
BENCH_PRELUDE = r"""
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A 64-byte aligned array of random values of T: integers over the whole type, floats uniform in
// [lo, hi) (finite, no NaN).
template <class T> T* make_input(size_t n, uint64_t seed, double lo, double hi) {
  const size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
  T* a = static_cast<T*>(std::aligned_alloc(64, bytes));
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix(s);
    if constexpr (std::is_floating_point_v<T>) {
      a[i] = (T)(lo + (hi - lo) * ((double)(r >> 11) * (1.0 / 9007199254740992.0)));
    } else {
      std::memcpy(&a[i], &r, sizeof(T));
    }
  }
  return a;
}

template <class T> double absum(const T* a, size_t n) {
  double s = 0;
  if constexpr (std::is_floating_point_v<T>) {
    for (size_t i = 0; i < n; ++i) s += std::fabs((double)a[i]);
  }
  return s;
}

// Results of the two functions: integers exactly, floats within a reassociation tolerance.
template <class T> bool close(T a, T b, double scale) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a == b || (std::isnan(a) && std::isnan(b))) return true;
    const double d = std::fabs((double)a - (double)b);
    return d <= 1e-4 * (std::fabs((double)a) + std::fabs((double)b)) + 1e-5 * scale;
  } else {
    return a == b;
  }
}

template <class T> std::string show(T v) {
  char buf[64];
  if constexpr (std::is_floating_point_v<T>) {
    std::snprintf(buf, sizeof buf, "%.9g", (double)v);
  } else if constexpr (std::is_signed_v<T>) {
    std::snprintf(buf, sizeof buf, "%lld", (long long)v);
  } else {
    std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  }
  return buf;
}

}  // namespace
"""


def bench_main(cf, kernels, sizes, float_range):
    sig = cf.signature
    params = sig.params
    decl_params = ", ".join(p.decl for p in params)
    out = [f"// Generated by bench/lift/bench_corpus.py for {Path(cf.path).name}", BENCH_PRELUDE]
    out += [f'#include "{k}.h"' for k in kernels]
    out.append("")
    c_linkage = not cf.is_cpp or sig.extern_c
    if c_linkage:
        out.append('extern "C" {')
    for suffix in ("__orig", "__lifted"):
        out.append(f"{sig.ret} {sig.name}{suffix}({decl_params});")
    if c_linkage:
        out.append("}")
    out.append("")
    max_n = max(sizes)
    inputs = [p for p in params if p.role == "input"]
    lo, hi = float_range
    out.append("namespace {")
    for k, p in enumerate(inputs):
        out.append(f"{p.base}* const in{k} = make_input<{p.base}>({max_n}, {1000 + 7 * k}ull, {lo!r}, {hi!r});")
    summaries = {line: s for line, s in cf.kernel_summaries.items()}
    scalars = []
    for p in params:
        if p.role == "scalar":
            value, why = neutral_value(cf, p, summaries)
            scalars.append((p, value, why))
            out.append(f"const {p.base} s_{p.name} = {value};  // {why}")
    out.append("")

    def call(suffix, outs_prefix):
        args = []
        for p in params:
            if p.role == "input":
                args.append(f"in{inputs.index(p)}")
            elif p.role == "length":
                args.append(f"({p.base})n")
            elif p.role == "scalar":
                args.append(f"s_{p.name}")
            else:
                args.append(f"&{outs_prefix}{p.name}")
        return f"{sig.name}{suffix}({', '.join(args)})"

    outputs = [p for p in params if p.role == "output"]
    for suffix in ("__orig", "__lifted"):
        out.append(f"void bm{suffix}(benchmark::State& state) {{")
        out.append("  const int64_t n = state.range(0);")
        for p in outputs:
            out.append(f"  {p.base} o_{p.name} = 0;")
        out.append("  for (auto _ : state) {")
        if sig.ret == "void":
            out.append(f"    {call(suffix, 'o_')};")
        else:
            out.append(f"    {sig.ret} r = {call(suffix, 'o_')};")
            out.append("    benchmark::DoNotOptimize(r);")
        for p in outputs:
            out.append(f"    benchmark::DoNotOptimize(o_{p.name});")
        out.append("    benchmark::ClobberMemory();")
        out.append("  }")
        out.append("  state.SetItemsProcessed(state.iterations() * n);")
        out.append("}")
        out.append("")

    # --info: the variants the kernels run and a comparison of both functions' results.
    out.append("int info() {")
    for k in kernels:
        out.append(f'  std::printf("variant {k} %s\\n", {k}_variant());')
    out.append("  int bad = 0;")
    out.append(f"  for (int64_t n : {{{', '.join(str(s) for s in sizes)}}}) {{")
    out.append("    double scale = 0;")
    for k, p in enumerate(inputs):
        out.append(f"    scale += absum(in{k}, (size_t)n);")
    for p, _, _ in scalars:
        if p.base in FLOAT_TYPES:
            out.append(f"    scale += std::fabs((double)s_{p.name});")
    for p in outputs:
        out.append(f"    {p.base} a_{p.name} = 0, b_{p.name} = 0;")
    if sig.ret != "void":
        out.append(f"    const {sig.ret} ra = {call('__orig', 'a_')};")
        out.append(f"    const {sig.ret} rb = {call('__lifted', 'b_')};")
        out.append("    if (!close(ra, rb, scale)) {")
        out.append('      std::printf("mismatch n=%lld return %s vs %s\\n", (long long)n, show(ra).c_str(), show(rb).c_str());')
        out.append("      bad = 1;")
        out.append("    }")
    else:
        out.append(f"    {call('__orig', 'a_')};")
        out.append(f"    {call('__lifted', 'b_')};")
    for p in outputs:
        out.append(f"    if (!close(a_{p.name}, b_{p.name}, scale)) {{")
        out.append(f'      std::printf("mismatch n=%lld *{p.name} %s vs %s\\n", (long long)n, '
                   f'show(a_{p.name}).c_str(), show(b_{p.name}).c_str());')
        out.append("      bad = 1;")
        out.append("    }")
    out.append("  }")
    out.append('  std::printf("check %s\\n", bad ? "MISMATCH" : "ok");')
    out.append("  return 0;")
    out.append("}")
    out.append("}  // namespace")
    out.append("")
    out.append("int main(int argc, char** argv) {")
    out.append('  if (argc > 1 && std::strcmp(argv[1], "--info") == 0) return info();')
    for n in sizes:
        for suffix in ("__orig", "__lifted"):
            out.append(f'  benchmark::RegisterBenchmark("{suffix[2:]}/{n}", bm{suffix})->Arg({n})'
                       f"->Unit(benchmark::kNanosecond);")
    out += ["  benchmark::Initialize(&argc, argv);",
            "  benchmark::RunSpecifiedBenchmarks();",
            "  benchmark::Shutdown();",
            "  return 0;",
            "}", ""]
    return "\n".join(out)


CLOCK_MAIN = r"""// Generated by bench/lift/bench_corpus.py: the clock, as bench/clock.cpp measures it.
#include <benchmark/benchmark.h>
#include <cstdint>
static void clock_chain(benchmark::State& state) {
  uint64_t x = 0, one = 1;
  for (auto _ : state) {
    // 1000 dependent adds of a register (not an immediate: Golden Cove folds `add $imm` chains).
    asm volatile(".rept 1000\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
  }
  benchmark::DoNotOptimize(x);
  state.counters["ghz"] = benchmark::Counter(1000 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(clock_chain);
BENCHMARK_MAIN();
"""


# ----------------------------------------------------------------------------------------------
class Entry:
    def __init__(self, path):
        self.path = path
        self.name = Path(path).name
        self.res = rc.Result(path)
        self.kernels = []        # lifted kernel names
        self.summaries = []      # their summaries, in order
        self.per_row = False     # a lifted loop is an inner loop: one kernel call per row
        self.exe = None
        self.error = None        # why it has no benchmark (a tool or build failure)
        self.variants = []
        self.check = ""
        self.times = {}          # (which, n) -> median ns
        self.note = ""


def prepare(path, args, sizes):
    """Lift, check the remarks, rewrite, generate, build. Returns an Entry."""
    e = Entry(path)
    try:
        cf = rc.CorpusFile(path)
    except (rc.CorpusError, OSError, ValueError) as ex:
        e.error = f"corpus error: {ex}"
        return e
    stem = e.name.replace(".", "_")
    wd = Path(args.work).resolve() / stem
    shutil.rmtree(wd, ignore_errors=True)
    specs0, specs, gen, build, rw = wd / "specs_original", wd / "specs", wd / "gen", wd / "build", wd / "rewritten"
    for d in (specs0, specs, gen, build, rw):
        d.mkdir(parents=True)
    simdgen = args.simdgen

    cmd = [simdgen, "lift", path, "-o", specs0, *cf.lift_args, "--", cf.std]
    code, so, se = run(cmd, timeout=300)
    remarks = [r for r in rc.parse_remarks(se) if r["file"] == path]
    rc.check_remarks(cf, path, rc.parse_remarks(se), e.res)
    if code != 0:
        e.error = f"simdgen lift exited with {code}: {rc.quote(cmd)}\n{so}{se}"
        return e
    lifted = [r for r in remarks if r["kind"] == "lifted"]
    e.kernels = rc.lifted_names(lifted)
    e.summaries = [summary_of(r["text"]) for r in lifted]
    cf.kernel_summaries = {r["line"]: summary_of(r["text"]) for r in lifted}
    e.per_row = bool(inner_loops(cf, [r["line"] for r in lifted]))
    if not e.kernels:
        return e
    reason = cf.signature.check_style() if cf.signature else cf.signature_error
    if reason:
        e.error = f"no benchmark: {reason}"
        return e

    copy = rw / e.name
    shutil.copyfile(path, copy)
    cmd = [simdgen, "lift", "--rewrite", copy, "-o", specs, *cf.lift_args, "--", cf.std]
    code, so, se = run(cmd, timeout=300)
    names2 = rc.lifted_names([r for r in rc.parse_remarks(se) if r["file"] == str(copy)])
    if code != 0 or sorted(names2) != sorted(e.kernels):
        e.error = f"simdgen lift --rewrite exited with {code}, lifted {names2}: {rc.quote(cmd)}\n{so}{se}"
        return e
    cmd = [simdgen, "generate", *sorted(specs.glob("*.json")), "-o", gen]
    code, so, se = run(cmd, timeout=300)
    if code != 0:
        e.error = f"simdgen generate exited with {code}: {rc.quote(cmd)}\n{so}{se}"
        return e

    float_mul = any(op_of(s) == "mul" and re.search(r"\bf(32|64)\b", s) for s in e.summaries)
    float_range = (0.999, 1.001) if float_mul else (-1.0, 1.0)
    if float_mul:
        e.note = "float inputs in [0.999, 1.001)"
    main_cpp = build / "bench_main.cpp"
    main_cpp.write_text(bench_main(cf, e.kernels, sizes, float_range))

    cc = shlex.split(args.cxx if cf.is_cpp else args.cc)
    cxx = shlex.split(args.cxx)
    fn = cf.signature.name
    compiles = [
        ([*cc, cf.std, "-O3", "-march=native", f"-D{fn}={fn}__orig"], Path(path), build / "original.o"),
        ([*cc, cf.std, "-O2", f"-D{fn}={fn}__lifted", "-I", gen], copy, build / "rewritten.o"),
        ([*cxx, "-std=c++17", "-O2", "-I", gen], main_cpp, build / "bench_main.o"),
    ]
    for k, g in enumerate(sorted(gen.glob("*.cpp"))):
        compiles.append(([*cxx, "-std=c++17", "-O2"], g, build / f"kernel{k}.o"))
    for cmd, src, obj in compiles:
        full = [*cmd, "-c", src, "-o", obj]
        code, so, se = run(full)
        if code != 0:
            e.error = f"compiling {src.name} failed: {rc.quote(full)}\n{so}{se}"
            return e
    exe = build / "bench"
    cmd = [*cxx, *[c[2] for c in compiles], "-o", exe, "-lbenchmark", "-lpthread", "-lm"]
    code, so, se = run(cmd)
    if code != 0:
        e.error = f"linking failed: {rc.quote(cmd)}\n{so}{se}"
        return e
    e.exe = exe
    return e


def pin_prefix(args):
    if args.cpu and shutil.which("taskset"):
        return ["taskset", "-c", args.cpu]
    return []


def run_bench(e, args, sizes):
    code, so, se = run([*pin_prefix(args), e.exe, "--info"], timeout=120)
    if code != 0:
        e.error = f"{e.exe} --info exited with {code}\n{so}{se}"
        return
    for line in so.splitlines():
        if line.startswith("variant "):
            v = line.split()[2]
            if v not in e.variants:
                e.variants.append(v)
        elif line.startswith("check "):
            e.check = line.split()[1]
        elif line.startswith("mismatch"):
            e.note = (e.note + "; " if e.note else "") + line
    cmd = [*pin_prefix(args), e.exe, f"--benchmark_min_time={args.min_time}",
           f"--benchmark_repetitions={args.repetitions}", "--benchmark_report_aggregates_only=true",
           "--benchmark_format=json"]
    code, so, se = run(cmd, timeout=600)
    if code != 0:
        e.error = f"benchmark exited with {code}: {rc.quote(cmd)}\n{se}"
        return
    data = json.loads(so)
    for b in data["benchmarks"]:
        agg = b.get("aggregate_name", "")
        if args.repetitions > 1 and agg != "median":
            continue
        which, n = b["run_name"].split("/")[:2]
        assert b["time_unit"] == "ns"
        e.times[(which, int(n))] = b["real_time"]


def measure_clock(args):
    exe = Path(args.work).resolve() / "clock"
    if not exe.exists():
        src = exe.with_suffix(".cpp")
        src.write_text(CLOCK_MAIN)
        code, so, se = run([*shlex.split(args.cxx), "-std=c++17", "-O2", src, "-o", exe, "-lbenchmark", "-lpthread"])
        if code != 0:
            print(f"bench_corpus: cannot build the clock benchmark:\n{so}{se}", file=sys.stderr)
            return None
    code, so, se = run([*pin_prefix(args), exe, "--benchmark_min_time=0.2", "--benchmark_repetitions=3",
                        "--benchmark_report_aggregates_only=true", "--benchmark_format=json"])
    if code != 0:
        return None
    for b in json.loads(so)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            return b["ghz"]
    return None


# ----------------------------------------------------------------------------------------------
def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def kind_of(e):
    ops = []
    for s in e.summaries:
        w = s.split()
        op = w[1] if len(w) > 1 else s
        ops.append(op)
    first = e.summaries[0].split()[0] if e.summaries else "reduce"
    fam = first if first in ("arg_reduce", "map", "transpose") else "reduce"
    if fam in ("map", "transpose"):
        return fam
    matrix = any(", over rows" in s or ", over columns" in s for s in e.summaries)
    uniq = sorted(set(ops))
    return f"{fam} {'+'.join(uniq)}" + (" (inner loop: a call per row)" if e.per_row else "") + (" (matrix)" if matrix else "")


def fmt_ns(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def report(entries, sizes, ghz, args, seconds):
    out = []
    flags = (f"original: clang-19/clang++-19 -O3 -march=native; rewritten: -O2, kernels clang++-19 -std=c++17 -O2 "
             f"(run-time dispatch); median of {args.repetitions} x {args.min_time} s")
    out.append(f"## `simdgen lift` corpus: rewritten vs original ({flags})")
    out.append("")
    out.append(f"Measured: {args.provenance}.")
    out.append("")
    if ghz:
        out.append(f"Clock (1000 dependent adds): {ghz[0]:.2f} GHz before, {ghz[1]:.2f} GHz after the run; "
                   f"elements/cycle = n / (ns x {ghz[0]:.2f}).")
        out.append("")
    hz = ghz[0] if ghz else None
    out.append("| file | lifted loops | variant | n | original ns | lifted ns | speedup | orig el/cyc | lifted el/cyc |")
    out.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    speed = {n: [] for n in sizes}
    speed_flat = {n: [] for n in sizes}  # without the inner loops (a kernel call per row)
    by_kind = {}
    benched = [e for e in entries if e.times]
    for e in benched:
        for n in sizes:
            o, l = e.times.get(("orig", n)), e.times.get(("lifted", n))
            if o is None or l is None:
                continue
            s = o / l
            speed[n].append(s)
            if not e.per_row:
                speed_flat[n].append(s)
            by_kind.setdefault(kind_of(e), {}).setdefault(n, []).append(s)
            epc_o = f"{n / (o * hz):.2f}" if hz else "-"
            epc_l = f"{n / (l * hz):.2f}" if hz else "-"
            kern = "; ".join(e.summaries) + (" (inner loop: a call per row)" if e.per_row else "")
            variant = "/".join(e.variants)
            out.append(f"| {e.name} | {kern} | {variant} | {n} | {fmt_ns(o)} | {fmt_ns(l)} | {s:.2f}x | {epc_o} | {epc_l} |")
    out.append("")
    out.append("Geometric mean of the speedups (original time / rewritten time):")
    out.append("")
    out.append("| n | files | geomean | min | max | slower than the original |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, table in (("", speed), (" without inner loops", speed_flat)):
        if label and len(speed_flat[sizes[0]]) == len(speed[sizes[0]]):
            continue
        for n in sizes:
            xs = table[n]
            if xs:
                out.append(f"| {n}{label} | {len(xs)} | {geomean(xs):.2f}x | {min(xs):.2f}x | {max(xs):.2f}x | "
                           f"{sum(1 for x in xs if x < 1)} |")
    out.append("")
    out.append("By kind of kernel (geometric mean):")
    out.append("")
    out.append("| kind | files | " + " | ".join(f"n = {n}" for n in sizes) + " |")
    out.append("| --- | ---: | " + " | ".join("---:" for _ in sizes) + " |")
    for kind in sorted(by_kind):
        cells = [f"{geomean(by_kind[kind][n]):.2f}x" if by_kind[kind].get(n) else "-" for n in sizes]
        count = max(len(v) for v in by_kind[kind].values())
        out.append(f"| {kind} | {count} | " + " | ".join(cells) + " |")
    out.append("")
    E = sum(e.res.expected_lifted for e in entries)
    L = sum(e.res.lifted_as_expected for e in entries)
    F = sum(e.res.false_lifts for e in entries)
    rate = 100.0 * L / E if E else 0.0
    out.append(f"Lift rate: {L} lifted of {E} loops expected lifted ({rate:.1f}%) in {len(entries)} corpus files; "
               f"false lifts: {F} (must be 0).")
    checked = [e for e in benched if e.check == "ok"]
    out.append(f"Sanity check before timing: both functions gave the same results (integers exactly, floats within "
               f"1e-4 relative + 1e-5 x sum|x|) at every n in {len(checked)} of {len(benched)} programs.")
    notes = [e for e in entries if e.note or (e.check and e.check != "ok")]
    errors = [e for e in entries if e.error]
    missed = [(e, f) for e in entries for f in e.res.failures]
    if notes or errors or missed:
        out.append("")
        out.append("Notes:")
        out.append("")
        for e in notes:
            out.append(f"- {e.name}: check {e.check or '-'}; {e.note}")
        for e in errors:
            out.append(f"- {e.name}: NOT BENCHMARKED: {e.error.splitlines()[0]}")
        for e, f in missed:
            out.append(f"- {e.name}: remark check: {f}")
    out.append("")
    out.append(f"({len(benched)} programs, {seconds:.0f} s; `bench/lift/bench_corpus.py`)")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--simdgen", default=str(ROOT / "build" / "generator" / "simdgen"),
                    help="the simdgen binary (copied to WORK/snapshot/ with the corpus files before the run)")
    ap.add_argument("--work", default="/tmp/simdgen-bench-lift")
    ap.add_argument("--out", default="", help="also write the Markdown report here")
    ap.add_argument("--cc", default="clang-19")
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--jobs", type=int, default=2, help="files prepared and built in parallel")
    ap.add_argument("--sizes", default="4096,65536")
    ap.add_argument("--min-time", default="0.05", help="--benchmark_min_time, seconds (benchmark 1.7: a plain number)")
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--cpu", default="1", help="core the benchmarks are pinned to with taskset (empty: no pinning)")
    ap.add_argument("--only", default="", help="only corpus files whose name matches this glob")
    ap.add_argument("files", nargs="*", metavar="CORPUS_FILES")
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",") if s]
    files = args.files or sorted(str(p) for p in (ROOT / "tests" / "lift" / "corpus").iterdir() if p.is_file())
    files = [f for f in files if not args.only or fnmatch.fnmatch(Path(f).name, args.only)]
    if not files:
        print("bench_corpus: no corpus file selected", file=sys.stderr)
        return 2
    if not Path(args.simdgen).is_file():
        print(f"bench_corpus: no simdgen binary at {args.simdgen} (--simdgen)", file=sys.stderr)
        return 2
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    # What is measured: the commit, uncommitted changes, the binary's date.
    _, head, _ = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], timeout=30)
    _, dirty, _ = run(["git", "-C", ROOT, "status", "--porcelain", "--", "generator", "tests/lift", "templates"], timeout=30)
    changed = len([x for x in dirty.splitlines() if x.strip()])
    args.provenance = (f"repository {head.strip() or '?'}" + (f" with {changed} uncommitted changes in generator/, "
                       f"templates/, tests/lift/" if changed else "") +
                       f"; simdgen binary of {time.strftime('%Y-%m-%d %H:%M', time.localtime(Path(args.simdgen).stat().st_mtime))}"
                       f"; {len(files)} corpus files")
    # A snapshot of the binary and the corpus: both may change under a run (a rebuild, an edit).
    snap = work / "snapshot"
    shutil.rmtree(snap, ignore_errors=True)
    (snap / "corpus").mkdir(parents=True)
    shutil.copy2(args.simdgen, snap / "simdgen")
    args.simdgen = str(snap / "simdgen")
    copies = []
    for f in files:
        try:
            shutil.copyfile(f, snap / "corpus" / Path(f).name)
            copies.append(str(snap / "corpus" / Path(f).name))
        except OSError as ex:
            print(f"bench_corpus: skipping {f}: {ex}", file=sys.stderr)
    files = copies

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        entries = list(pool.map(lambda f: prepare(f, args, sizes), files))
    built = [e for e in entries if e.exe]
    print(f"bench_corpus: {len(files)} files lifted, {len(built)} benchmark programs built "
          f"({time.time() - t0:.0f} s); running them", file=sys.stderr)

    ghz0 = measure_clock(args)
    for k, e in enumerate(built, start=1):
        run_bench(e, args, sizes)
        o = e.times.get(("orig", sizes[0]))
        l_ = e.times.get(("lifted", sizes[0]))
        tail = f"{o / l_:.2f}x at n={sizes[0]}" if o and l_ else (e.error or "").split("\n")[0]
        print(f"  [{k}/{len(built)}] {e.name}: {tail}", file=sys.stderr)
    ghz1 = measure_clock(args)
    ghz = (ghz0, ghz1) if ghz0 and ghz1 else None

    text = report(entries, sizes, ghz, args, time.time() - t0)
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text)
    return 1 if any(e.res.false_lifts for e in entries) else 0


if __name__ == "__main__":
    sys.exit(main())
