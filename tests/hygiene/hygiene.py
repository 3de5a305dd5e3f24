#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hygiene test: no name a user gives a runtime extent can capture or shadow a generated name.

For each fixture spec in specs/ (three user-chosen names @R@, @C@, @S@: runtime extents or strides,
or a map's input, parameter and output names):
  1. generate it with plain names and collect every identifier its generated code contains
     (plus the names of the original bug report: r, c, acc0, x0, row_sum, lane_acc, column, k, mask),
     of each numbered family (t0_0 .. t3_15, row0 .. row15: names that differ only in their
     numbers, declared by one line of a template) the first and the last;
  2. drop the identifiers the spec parser rejects for a runtime extent (each gets a clear error,
     e.g. keywords, `input`, the kernel's own function names);
  3. make copies of the spec whose runtime extents take the remaining identifiers, three at a time;
  4. generate every copy and check each (BATCH to a translation unit) with -Wall -Wextra -Wshadow
     -Werror -fsyntax-only: every --cxx and --cxx-syntax compiler natively, every
     --cxx-syntax-aarch64 compiler for AArch64 (the NEON and SVE variants, which this machine does
     not run). A clash of names is a front-end diagnostic, so this is the check of every name;
  5. build one translation unit in RUN_EVERY of each fixture with every --cxx compiler (same
     flags) with a driver that runs every variant this CPU supports against the scalar
     references: renamed code must also compute the same (building every copy took most of
     the test's time and showed nothing the front end had not).
Exit 0 when everything compiles cleanly and every result matches.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
from pathlib import Path

FIXTURES = {
    # fixture: the check the driver runs on fn(input, rows, cols, stride, out...)
    "seq_f32_f64": "hygiene::checkReduce<float, double>(K, V, F, simdgen_ref::Op::add, 1)",
    "sum_i8_i32": "hygiene::checkReduce<int8_t, int32_t>(K, V, F, simdgen_ref::Op::add, 1)",
    "colmax_i16": "hygiene::checkReduce<int16_t, int16_t>(K, V, F, simdgen_ref::Op::max, 0)",
    "argmax_f32": "hygiene::checkArg<float, int64_t>(K, V, F, kArgmaxLastPropagate)",
    # map: the extents renamed, then (extents fixed) the input, parameter and output names
    "map_extents_i32": "hygiene::checkMap(K, V, F)",
    "map_names_i32": "hygiene::checkMap(K, V, F)",
    # map inputs at runtime strides of their own (gathers, versioned loops, their offset vectors)
    "map_strides_i32": "hygiene::checkStrides(K, V, F)",
    # transpose: both matrices share the row stride @S@ (one leading dimension)
    "transpose_f32": "hygiene::checkTranspose(K, V, F)",
    # contraction: a matmul with a bias and ReLU, its extents and a stride renamed, then (extents
    # fixed) its first operand, its bias and its epilogue's runtime scale
    "contraction_extents_f32": "hygiene::checkContraction<false>(K, V, F)",
    "contraction_names_f32": "hygiene::checkContraction<true>(K, V, F)",
}
# Names a fixture's slots must not take although the spec accepts them: a stride named like a
# shape extent is that extent (one parameter fewer: another signature than the driver calls).
UNUSABLE = {"map_strides_i32": {"nr", "nc", "ns"},
            "contraction_extents_f32": {"nk", "nlb", "nlc"},
            "contraction_names_f32": {"nm", "nn", "nk", "nla", "nlb", "nlc"}}
SLOTS = ["@R@", "@C@", "@S@"]
PLAIN = ["rows", "cols", "stride"]
REPORTED = ["r", "c", "acc0", "x0", "row_sum", "lane_acc", "column", "k", "mask"]
BATCH = 20  # renamed copies compiled as one translation unit
RUN_EVERY = 1000  # one batch in RUN_EVERY is also built and run: the first of each fixture
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def code_identifiers(text):
    """Identifiers of C++ code, comments removed (string contents are kept: they cost nothing)."""
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return set(IDENT.findall(text))


def family_ends(ids):
    """The first and the last member (by their numbers) of each family of identifiers that differ
    only in their numbers: a template declares a family in one scope, so its ends clash where any
    member would (checking all 48 members of the transpose's t0_0 .. t3_15 took most of the time)."""
    families = {}
    for ident in ids:
        key = re.sub(r"[0-9]+", "#", ident)
        families.setdefault(key, []).append(ident)
    ends = set()
    for members in families.values():
        members.sort(key=lambda m: [int(n) for n in re.findall(r"[0-9]+", m)])
        ends |= {members[0], members[-1]}
    return ends


def fill(check, kernel, variant, fn):
    """The driver's call: K, V, F of a FIXTURES check replaced."""
    return check.replace("(K, V, F", "(" + ", ".join([kernel, variant, fn]), 1)


def instantiate(template, name, names):
    text = template.replace("@NAME@", name)
    for slot, value in zip(SLOTS, names):
        text = text.replace(slot, value)
    return text


# The system headers every generated file includes. Parsing them (immintrin.h above all) is most of
# a compile; precompiled once per compiler, the hundreds of copies build about twice as fast. The
# generated files still include them (their include guards make that free), and -Winvalid-pch
# under -Werror fails the test if a compiler cannot use its precompiled header.
PCH_HEADERS = ["stdint.h", "stdio.h", "stdlib.h", "string.h"]
ISA_HEADERS = {"x86-64": ["immintrin.h"], "aarch64": ["arm_neon.h", "arm_sve.h"]}


def compiler_flags(cxx, arch):
    """A compiler's flags for `arch` (clang cross-compiles by --target; a GNU cross compiler is its own)."""
    return ["--target=aarch64-linux-gnu"] if arch == "aarch64" and "clang" in Path(cxx).name else []


def precompiled_headers(work, flags, compilers):
    """The extra flags each (compiler, arch) takes to use its precompiled system headers."""
    out = {}
    for cxx, arch in compilers:
        d = work / "pch" / f"{Path(cxx).name}.{arch}"
        d.mkdir(parents=True, exist_ok=True)
        header = d / "hygiene_pch.h"
        header.write_text("".join(f"#include <{h}>\n" for h in PCH_HEADERS + ISA_HEADERS[arch]))
        clang = "clang" in Path(cxx).name
        target = d / ("hygiene_pch.pch" if clang else "hygiene_pch.h.gch")
        r = run([cxx, *compiler_flags(cxx, arch), *flags, "-x", "c++-header", str(header), "-o", str(target)])
        if r.returncode:
            sys.exit(f"precompiling the system headers with {cxx} failed:\n{r.stderr}")
        out[(cxx, arch)] = [*compiler_flags(cxx, arch), *(["-include-pch", str(target)] if clang else ["-include", str(header)])]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--simdgen", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--include", action="append", default=[], help="include dirs for the driver")
    ap.add_argument("--cxx", action="append", required=True, help="compilers to build and run every copy with")
    ap.add_argument("--cxx-syntax", action="append", default=[],
                    help="compilers that only check every copy (-fsyntax-only: clang's warnings all come from its front end)")
    ap.add_argument("--cxx-syntax-aarch64", action="append", default=[],
                    help="compilers that check every copy's AArch64 code (NEON, SVE) the same way")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    problems = []

    # 1. plain generation, identifiers of the generated code
    plain_dir, copies_dir, gen_dir = work / "plain", work / "copies", work / "gen"
    for d in (plain_dir, copies_dir, gen_dir):
        d.mkdir(exist_ok=True)
        for f in d.iterdir():
            f.unlink()
    templates = {fx: (here / "specs" / f"{fx}.json").read_text() for fx in FIXTURES}
    for fx, t in templates.items():
        (plain_dir / f"plain_{fx}.json").write_text(instantiate(t, f"plain_{fx}", PLAIN))
    r = run([args.simdgen, "generate", *sorted(map(str, plain_dir.glob("*.json"))), "-o", str(gen_dir)])
    if r.returncode:
        sys.exit("plain generation failed:\n" + r.stdout + r.stderr)
    candidates = {}
    for fx in FIXTURES:
        ids = set()
        for ext in (".h", ".cpp"):
            ids |= code_identifiers((gen_dir / f"plain_{fx}{ext}").read_text())
        candidates[fx] = sorted(family_ends(ids) | set(REPORTED))

    # 2. which identifiers the parser accepts for a runtime extent (one validate call)
    probe_dir = work / "probe"
    probe_dir.mkdir(exist_ok=True)
    for f in probe_dir.iterdir():
        f.unlink()
    probes = {}
    for fx, ids in candidates.items():
        for k, ident in enumerate(ids):
            p = probe_dir / f"p_{fx}_{k}.json"
            p.write_text(instantiate(templates[fx], f"probe_{fx}_{k}", [ident, "cols", "stride"] if ident not in ("cols", "stride") else [ident, "n_cols", "n_stride"]))
            probes[str(p)] = (fx, ident)
    r = run([args.simdgen, "validate", *probes.keys()])
    rejected = {path for path in probes if path + ":" in r.stderr}
    accepted = {fx: [] for fx in FIXTURES}
    for path, (fx, ident) in probes.items():
        if path not in rejected and ident not in UNUSABLE.get(fx, ()):
            accepted[fx].append(ident)
    for fx in FIXTURES:
        print(f"{fx}: {len(candidates[fx])} identifiers in the generated code, {len(accepted[fx])} accepted as "
              f"runtime names, {len(candidates[fx]) - len(accepted[fx])} rejected by the spec with an error")
        for must in REPORTED:
            if must not in accepted[fx]:
                problems.append(f"{fx}: the reported name '{must}' is rejected; it should be usable")

    # 3. copies, three identifiers each
    copies = {fx: [] for fx in FIXTURES}
    for fx, ids in accepted.items():
        for k in range(0, len(ids), 3):
            names = ids[k:k + 3]
            names += [x for x in ids if x not in names][: 3 - len(names)]
            name = f"h_{fx}_{k // 3}"
            (copies_dir / f"{name}.json").write_text(instantiate(templates[fx], name, names))
            copies[fx].append((name, names))
    r = run([args.simdgen, "generate", *sorted(map(str, copies_dir.glob("*.json"))), "-o", str(gen_dir)])
    if r.returncode:
        sys.exit("generation of the renamed copies failed:\n" + r.stdout + r.stderr)

    # 4. a driver per fixture, every copy compiled with every compiler under -Wshadow -Werror
    # -O0: a name can only clash in the front end (every -Wshadow warning and redeclaration error
    # is a front-end diagnostic); the optimiser's warnings are checked on the real specs by the
    # compile tests. Unoptimised, clang builds a copy in about the time it takes to check it.
    flags = ["-std=c++17", "-O0", "-Wall", "-Wextra", "-Wshadow", "-Werror", "-Winvalid-pch"]
    includes = [f"-I{gen_dir}", f"-I{here}"] + [f"-I{d}" for d in args.include]
    native = [(cxx, "x86-64") for cxx in args.cxx + args.cxx_syntax]
    pch = precompiled_headers(work, flags, native + [(cxx, "aarch64") for cxx in args.cxx_syntax_aarch64])
    jobs, links, ran = [], [], {}
    for fx, items in copies.items():
        batched = [items[k:k + BATCH] for k in range(0, len(items), BATCH)]
        run_items = [it for b, chunk in enumerate(batched) if b % RUN_EVERY == 0 for it in chunk]
        ran[fx] = len(run_items)
        lines = [f'#include "{n}.h"' for n, _ in run_items]
        lines += ['#include "hygiene_checks.h"', "",
                  "[[maybe_unused]] static const simdgen_ref::ArgSpec<float> kArgmaxLastPropagate{"
                  "simdgen_ref::ArgOp::argmax, true, true, false, 0.0f, 0};", "",
                  "int main() {", "  bool ok = true;"]
        for n, names in run_items:
            check = FIXTURES[fx]
            lines.append(f"  // runtime extents named {', '.join(names)}")
            lines.append("#define HYGIENE_CHECK(s) ok = " + fill(check, '"' + n + '"', "#s", "&" + n + "_##s") + " && ok;")
            lines.append(f"  SIMDGEN_{n}_VARIANTS(HYGIENE_CHECK)")
            lines.append("#undef HYGIENE_CHECK")
            lines.append("  ok = " + fill(check, '"' + n + '"', '"dispatch"', "&" + n) + " && ok;")
        lines += ['  std::puts(ok ? "ok" : "FAILED");', "  return ok ? 0 : 1;", "}", ""]
        driver = work / f"driver_{fx}.cpp"
        driver.write_text("\n".join(lines))
        # The copies' .cpp files, BATCH to a translation unit (a unity build, which the generated
        # code supports: its shared helpers are guarded): a compiler's start-up, not the code, was
        # most of the time of one small compile.
        batches = []
        for b, chunk in enumerate(batched):
            batch = work / f"batch_{fx}_{b}.cpp"
            batch.write_text("".join(f'#include "{n}.cpp"\n' for n, _ in chunk))
            batches.append(batch)
        built = batches[::RUN_EVERY]
        for cxx in args.cxx_syntax:
            tag = Path(cxx).name
            for src in batches + [driver]:
                jobs.append((fx, tag, [cxx, *flags, *pch[(cxx, "x86-64")], *includes, "-fsyntax-only", str(src)]))
        for cxx in args.cxx:  # the batches it does not build
            tag = Path(cxx).name
            for src in batches:
                if src not in built:
                    jobs.append((fx, tag, [cxx, *flags, *pch[(cxx, "x86-64")], *includes, "-fsyntax-only", str(src)]))
        for cxx in args.cxx_syntax_aarch64:  # the generated code only: the driver runs natively
            tag = Path(cxx).name + " aarch64"
            for src in batches:
                jobs.append((fx, tag, [cxx, *flags, *pch[(cxx, "aarch64")], *includes, "-fsyntax-only", str(src)]))
        for cxx in args.cxx:
            tag = Path(cxx).name
            objs = []
            for batch in built:
                obj = work / f"{batch.stem}.{tag}.o"
                jobs.append((fx, tag, [cxx, *flags, *pch[(cxx, "x86-64")], *includes, "-c", str(batch), "-o", str(obj)]))
                objs.append(obj)
            dobj = work / f"driver_{fx}.{tag}.o"
            jobs.append((fx, tag, [cxx, *flags, *pch[(cxx, "x86-64")], *includes, "-c", str(driver), "-o", str(dobj)]))
            objs.append(dobj)
            links.append((fx, tag, cxx, objs))

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for (fx, tag, cmd), res in zip(jobs, pool.map(lambda j: run(j[2]), jobs)):
            if res.returncode:
                problems.append(f"{fx} [{tag}]: {' '.join(cmd)}\n{res.stderr[:4000]}")
    if problems:
        print("\n".join(problems))
        return 1

    def link_and_run(fx, tag, cxx, objs):
        exe = work / f"hygiene_{fx}.{tag}"
        res = run([cxx, *map(str, objs), "-o", str(exe)])
        if res.returncode:
            return f"{fx} [{tag}]: link failed\n{res.stderr[:4000]}"
        res = run([str(exe)])
        last = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else f"exit {res.returncode}"
        print(f"{fx} [{tag}]: {len(copies[fx])} renamed copies checked, {ran[fx]} built and run: {last}", flush=True)
        return f"{fx} [{tag}]: wrong results\n{res.stdout[-4000:]}" if res.returncode else None

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        problems += [p for p in pool.map(lambda link: link_and_run(*link), links) if p]
    if problems:
        print("\n".join(problems))
        return 1
    print(f"hygiene: every renamed copy compiles warning-free under -Wshadow; one batch in {RUN_EVERY} built, and its results match the references")
    return 0


if __name__ == "__main__":
    sys.exit(main())
