#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Instruction counts of the Arm kernels under qemu-aarch64 (no Arm hardware needed).

Builds bench/arm_icount/icount_main (the generated kernels of specs/*.json, the hand-written ACLE
loops of hand_acle.cpp), runs it once per (kernel, policy, vector length) under

    qemu-aarch64 -singlestep -d exec,nochain -D FIFO -cpu max,sve-default-vector-length=B

and counts the "Trace" lines (one per executed instruction with -singlestep and nochain) between
consecutive calls of icount_mark(). The count of the n = 0 call is subtracted from every n.
The log is streamed through a FIFO, never written to disk. Before each traced run the same calls
run untraced in "check" mode, which compares every result with a plain reference.

    bench/arm_icount/run.py                     # full sweep -> bench/arm_icount/results.csv
    bench/arm_icount/run.py --nmax 40 -o /tmp/x.csv --kernels times_two   # quick check

CSV columns: kernel,policy,vl_bits,n,instructions,at_n0 (instructions = the call at n minus the
call at n = 0; at_n0 = the n = 0 segment itself: the kernel's fixed per-call work plus the
marker call and the driver loop, the same for every policy of a kernel). NEON rows are measured once (qemu
`-cpu max,sve=off`) and have vl_bits = 128.
"""
import argparse
import concurrent.futures
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

KERNELS = {
    # kernel: (spec stems, policies, n sampling)
    "times_two": (["times_two_pred", "times_two_scal"],
                  ["sve_predicated", "sve_cleanup", "neon_predicated", "neon_cleanup",
                   "acle_sve_predicated", "acle_sve_cleanup", "acle_neon_cleanup"], "every"),
    "rowsum_i8": (["rowsum_i8_pred", "rowsum_i8_scal"],
                  ["sve_predicated", "sve_cleanup", "neon_predicated", "neon_cleanup",
                   "neon_dotprod_predicated", "neon_dotprod_cleanup"], "sampled"),
    "rowsum_f32": (["rowsum_f32_pred", "rowsum_f32_scal"],
                   ["sve_predicated", "sve_cleanup", "neon_predicated", "neon_cleanup"], "sampled"),
    # Element widths differ (unpacked containers on SVE, fractional vectors on NEON; one element at a time before).
    "u8_to_f32": (["u8_to_f32_pred", "u8_to_f32_scal"],
                  ["sve_predicated", "sve_cleanup", "neon_predicated", "neon_cleanup", "neon_one_element"], "sampled"),
    # Bytes at a constant stride of 3 (an RGB channel): NEON structure loads since 2026-11-27.
    "strided3": (["strided3_pred", "strided3_scal"],
                 ["sve_predicated", "sve_cleanup", "neon_predicated", "neon_cleanup"], "sampled"),
    "f32_to_u8": (["f32_to_u8_pred", "f32_to_u8_scal"],
                  ["sve_predicated", "sve_cleanup", "neon_predicated", "neon_cleanup", "neon_one_element"], "sampled"),
}
SVE_VLS = [128, 256, 512]


def sh(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def build(build_dir, simdgen, cxx):
    gen = os.path.join(build_dir, "gen")
    os.makedirs(gen, exist_ok=True)
    sources = [os.path.join(HERE, "icount_main.cpp"), os.path.join(HERE, "hand_acle.cpp")]
    for stems, _, _ in KERNELS.values():
        for stem in stems:
            sh([simdgen, "generate", os.path.join(HERE, "specs", stem + ".json"), "-o", gen],
               stdout=subprocess.DEVNULL)
            sources.append(os.path.join(gen, stem + ".cpp"))
    exe = os.path.join(build_dir, "icount_main")
    sh([cxx, "-O2", "-static", "-std=c++17", "-I", gen, "-I", HERE, *sources, "-o", exe])
    return exe


def marker_address(exe, nm):
    out = subprocess.run([nm, exe], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "icount_mark":
            return int(parts[0], 16)
    raise SystemExit("icount_mark not found in " + exe)


def measure(job):
    """One qemu run: returns (kernel, policy, vl_bits, [(n, instructions)])."""
    exe, mark, qemu, sysroot, kernel, policy, vl, nmax, sampling = job
    cpu = "max,sve=off" if vl is None else "max,sve-default-vector-length=%d" % (vl // 8)
    needle = ("/%016x/" % mark).encode()
    chk = subprocess.run([qemu, "-L", sysroot, "-cpu", cpu, exe, kernel, policy, str(nmax), sampling, "check"],
                         capture_output=True, text=True)
    if chk.returncode != 0 or "\nok" not in chk.stdout:
        raise RuntimeError("%s %s vl=%s: wrong results (%d): %s %s" % (kernel, policy, vl, chk.returncode,
                                                                       chk.stdout[-2000:], chk.stderr[-2000:]))
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "trace")
        os.mkfifo(fifo)
        proc = subprocess.Popen(
            [qemu, "-L", sysroot, "-cpu", cpu, "-singlestep", "-d", "exec,nochain", "-D", fifo,
             exe, kernel, policy, str(nmax), sampling, "count"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        segments = []  # instructions after each marker, up to the next one
        count = None
        with open(fifo, "rb", buffering=1 << 20) as log:
            for line in log:
                if needle in line:
                    if count is not None:
                        segments.append(count)
                    count = 0
                elif count is not None:
                    count += 1
        out, err = proc.communicate()
    text = out.decode()
    if proc.returncode != 0 or "\nok" not in text:
        raise RuntimeError("%s %s vl=%s failed (%d): %s %s" % (kernel, policy, vl, proc.returncode,
                                                              text[-2000:], err.decode()[-2000:]))
    lines = text.splitlines()
    sve_vl = int(next(l for l in lines if l.startswith("sve_vl_bits")).split()[1])
    if sve_vl != (vl or 0):
        raise RuntimeError("%s %s: asked for %s-bit SVE, the process has %d" % (kernel, policy, vl, sve_vl))
    ns = [int(x) for x in next(l for l in lines if l.startswith("ns ")).split()[1:]]
    # The last segment runs from the final marker to the end of the program: dropped.
    if len(segments) != len(ns):
        raise RuntimeError("%s %s vl=%s: %d markers for %d calls" % (kernel, policy, vl, len(segments), len(ns)))
    if ns[0] != 0:
        raise RuntimeError("the first call must be n = 0")
    base = segments[0]
    return kernel, policy, vl or 128, base, [(n, c - base) for n, c in zip(ns, segments)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "results.csv"))
    ap.add_argument("--build-dir", default=os.path.join(tempfile.gettempdir(), "simdgen_arm_icount"))
    ap.add_argument("--simdgen", default=os.environ.get("SIMDGEN", os.path.join(ROOT, "build", "generator", "simdgen")))
    ap.add_argument("--cxx", default="aarch64-linux-gnu-g++")
    ap.add_argument("--nm", default="aarch64-linux-gnu-nm")
    ap.add_argument("--qemu", default="qemu-aarch64")
    ap.add_argument("--sysroot", default="/usr/aarch64-linux-gnu")
    ap.add_argument("--nmax", type=int, default=1100)
    ap.add_argument("--kernels", default=",".join(KERNELS), help="comma-separated subset")
    ap.add_argument("--vls", default=",".join(map(str, SVE_VLS)), help="SVE vector lengths in bits")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    exe = build(args.build_dir, args.simdgen, args.cxx)
    mark = marker_address(exe, args.nm)
    vls = [int(v) for v in args.vls.split(",")]
    jobs = []
    for kernel in args.kernels.split(","):
        _, policies, sampling = KERNELS[kernel]
        for policy in policies:
            for vl in ([None] if "neon" in policy else vls):
                jobs.append((exe, mark, args.qemu, args.sysroot, kernel, policy, vl, args.nmax, sampling))
    rows = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for kernel, policy, vl, base, counts in pool.map(measure, jobs):
            print("%-10s %-24s %3d bits: n=%d -> %d instructions" % (kernel, policy, vl, counts[-1][0], counts[-1][1]),
                  file=sys.stderr)
            rows += [(kernel, policy, vl, n, c, base) for n, c in counts]
    with open(args.output, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "policy", "vl_bits", "n", "instructions", "at_n0"])
        w.writerows(rows)
    print("wrote %s (%d rows)" % (args.output, len(rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
