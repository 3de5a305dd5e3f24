#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cycles of the Arm kernels' main loops by LLVM's scheduling models (llvm-mca-19).

Instruction counts (run.py) say how much work a loop issues, not how fast a core retires it.
This script takes the main loop of each kernel in the binary run.py builds (the innermost loop,
found as a backward branch, with the most vector loads; the first such loop when paths repeat
it), and runs it through llvm-mca for Arm cores with published models:

    neoverse-n2 (SVE2, 128-bit), neoverse-v2 (SVE2, 128-bit), neoverse-v1 (SVE, 256-bit),
    a64fx (SVE, 512-bit), cortex-a72 (NEON only)

and reports cycles per iteration and bytes loaded per cycle at the core's vector length (the
SVE loops are vector-length agnostic: the same instructions at every length). Alternatives
that the generator does not emit (structure loads as multi-vector loads for sums) are written
here as assembly and measured the same way, to record why they are not used.

    bench/arm_icount/run.py -j 2 --kernels rowsum_f32    # builds /tmp/simdgen_arm_icount/icount_main
    bench/arm_icount/mca.py                               # markdown table on stdout

These are models, not measurements: they ignore caches (every load hits L1) and the front end
beyond decode widths. They compare loops on the same core; they do not replace hardware.
"""
import argparse
import os
import re
import subprocess
import tempfile

CORES = [("neoverse-n2", 16), ("neoverse-v2", 16), ("neoverse-v1", 32), ("a64fx", 64), ("cortex-a72", 0)]
FUNCTIONS = ["times_two_pred_sve", "times_two_pred_neon", "rowsum_i8_pred_sve", "rowsum_i8_pred_neon_dotprod",
             "rowsum_f32_pred_sve", "rowsum_f32_pred_neon", "strided3_pred_sve", "strided3_pred_neon"]


def alternative(name):
    """Loops the generator does not emit: the f32 row sum's 4-vector step through structure loads
    (ld2w: two vectors per instruction, ld4w: four; lanes de-interleaved, which a sum may ignore)."""
    adds = ["fadd z%d.s, z%d.s, z%d.s" % (a, a, 16 + a) for a in range(4)]
    tail = ["addvl x0, x0, #4", "cmp x0, x1", "b.lo 0"]
    if name == "rowsum_f32 via ld2w":
        return ["ld2w {z16.s, z17.s}, p0/z, [x0]", "ld2w {z18.s, z19.s}, p0/z, [x0, #2, mul vl]"] + adds + tail
    if name == "rowsum_f32 via ld4w":
        return ["ld4w {z16.s, z17.s, z18.s, z19.s}, p0/z, [x0]"] + adds + tail
    raise KeyError(name)


def disassemble(objdump, exe, function):
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", exe], check=True, capture_output=True, text=True).stdout
    body, inside = [], False
    for line in out.splitlines():
        if re.match(r"^[0-9a-f]+ <%s>:$" % re.escape(function), line):
            inside = True
            continue
        if inside:
            m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
            if not m:
                if body:
                    break
                continue
            body.append((int(m.group(1), 16), m.group(2).split("//")[0].strip()))
    if not body:
        raise SystemExit("%s not found in %s" % (function, exe))
    return body


def vector_loads(insn):
    """Vector registers an instruction loads (ld1w/ld1b/ldr q: 1, ldp q: 2, ld1 {v..}: its list)."""
    op = insn.split()[0]
    if op in ("ld1b", "ld1h", "ld1w", "ld1d") and "{z" in insn:
        return 1
    if op in ("ldr", "ldur") and re.match(r"^\S+\s+q\d+", insn):
        return 1
    if op == "ldp" and re.match(r"^\S+\s+q\d+", insn):
        return 2
    if op in ("ld1", "ld2", "ld3", "ld4") and "{v" in insn:  # a list of registers, or a range v0.4s-v2.4s
        regs = insn.split("{")[1].split("}")[0]
        if "-" in regs:
            lo, hi = (int(re.match(r"v(\d+)", r.strip()).group(1)) for r in regs.split("-"))
            return (hi - lo) % 32 + 1
        return regs.count(",") + 1
    if re.match(r"^ld[234][bhwd]$", op) and "{z" in insn:  # SVE structure loads
        return int(op[2])
    return 0


def main_loop(body, pick=None):
    """The innermost loop (backward branch .. its target) with structure loads, else the one with
    the most vector loads, or with `pick` the pick-th innermost loop in address order."""
    best, found = None, []
    addrs = [a for a, _ in body]
    for k, (addr, insn) in enumerate(body):
        m = re.match(r"^(b\.\w+|b|cbnz|cbz|tbnz|tbz)\s+.*?([0-9a-f]+) <", insn)
        if not m:
            continue
        target = int(m.group(2), 16)
        if target >= addr or target not in addrs:
            continue
        loop = [i for a, i in body[addrs.index(target):k + 1]]
        if any(re.match(r"^(b\.\w+|b|cbnz|cbz)\s", i) for i in loop[:-1]):
            continue  # not innermost
        loads = sum(vector_loads(i) for i in loop)
        found.append((loads, loop))
        if best is None or loads > best[0]:
            best = (loads, loop)
    # A loop of structure loads (ld2/ld3/ld4) is the main one where there is one: the lane-by-lane
    # loop after it has more loads but runs for the last columns only.
    structured = [f for f in found if any(re.match(r"^ld[234][bhwd]?\s", i) for i in f[1])]
    if structured:
        best = structured[0]
    if pick is not None:
        best = found[pick] if pick < len(found) else None
    if best is None:
        raise SystemExit("no loop found")
    # llvm-mca wants a branch target it can parse: any label works, the body repeats anyway.
    loop = best[1][:-1] + [re.sub(r"\s+\S+\s+<.*>$", " 0", best[1][-1])]
    return best[0], loop


def cycles(mca, cpu, loop):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(loop) + "\n")
        path = f.name
    try:
        out = subprocess.run([mca, "-mtriple=aarch64", "-mcpu=" + cpu, "-mattr=+sve,+sve2,+dotprod", "-iterations=1000", path],
                             capture_output=True, text=True)
    finally:
        os.unlink(path)
    m = re.search(r"Total Cycles:\s+(\d+)", out.stdout)
    return int(m.group(1)) / 1000.0 if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", default=os.path.join(tempfile.gettempdir(), "simdgen_arm_icount", "icount_main"))
    ap.add_argument("--objdump", default="aarch64-linux-gnu-objdump")
    ap.add_argument("--mca", default="llvm-mca-19")
    ap.add_argument("--show-loops", action="store_true", help="print each loop's instructions")
    ap.add_argument("--loop", type=int, help="measure the N-th innermost loop (address order) instead of the one with most loads")
    ap.add_argument("--functions", help="comma-separated functions of --exe (an object file works too) instead of the bench's")
    args = ap.parse_args()
    functions = args.functions.split(",") if args.functions else FUNCTIONS
    rows = [(f + ("" if args.loop is None else " loop %d" % args.loop), *main_loop(disassemble(args.objdump, args.exe, f), args.loop))
            for f in functions]
    if not args.functions:
        rows += [(name, 4, alternative(name)) for name in ("rowsum_f32 via ld2w", "rowsum_f32 via ld4w")]
    print("| loop | instructions | vectors loaded | " + " | ".join("%s cycles (B/cycle)" % c for c, _ in CORES) + " |")
    print("|---|---:|---:|" + "---:|" * len(CORES))
    for name, loads, loop in rows:
        sve = any("z" in i.split(",")[0] or "{z" in i for i in loop)
        cells = []
        for cpu, sve_bytes in CORES:
            if sve and not sve_bytes:
                cells.append("-")
                continue
            c = cycles(args.mca, cpu, loop)
            width = sve_bytes if sve else 16
            cells.append("-" if c is None else "%.2f (%.0f)" % (c, loads * width / c))
        print("| %s | %d | %d | %s |" % (name, len(loop), loads, " | ".join(cells)))
        if args.show_loops:
            print("\n".join("    " + i for i in loop))


if __name__ == "__main__":
    main()
