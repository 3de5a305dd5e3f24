#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plot and summarise bench/arm_icount/results.csv (written by run.py).

    /usr/bin/python3 bench/arm_icount/plot.py [results.csv] [-o docs/arm_icount.png]

Writes the PNG (needs matplotlib: Debian `python3-matplotlib`) and prints to stdout a Markdown
table (n = 17, 100, 1000) and the issue's goals checked against the data (`--no-plot` skips the
PNG).
"""
import argparse
import collections
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

KERNELS = ["times_two", "rowsum_i8", "rowsum_f32"]
TITLES = {"times_two": "B = A * 2 (f32)", "rowsum_i8": "i8 -> i32 row sum", "rowsum_f32": "f32 row sum"}
VLS = [128, 256, 512]
STYLE = {  # policy: (label, colour, line style)
    "sve_predicated": ("SVE predicated", "tab:blue", "-"),
    "sve_cleanup": ("SVE + scalar cleanup", "tab:orange", "-"),
    "neon_cleanup": ("NEON + scalar cleanup", "tab:green", "-"),
    "neon_predicated": ("NEON, staged partial vector", "tab:olive", "-"),
    "neon_dotprod_cleanup": ("NEON+dotprod + cleanup", "tab:purple", "-"),
    "neon_dotprod_predicated": ("NEON+dotprod, staged", "tab:pink", "-"),
    "acle_sve_predicated": ("hand ACLE: SVE predicated", "tab:blue", ":"),
    "acle_sve_cleanup": ("hand ACLE: SVE + cleanup", "tab:orange", ":"),
    "acle_neon_cleanup": ("hand ACLE: NEON + cleanup", "tab:green", ":"),
}
NEON = ("neon_cleanup", "neon_predicated", "neon_dotprod_cleanup", "neon_dotprod_predicated")
# The issue's figures for hand-written ACLE loops (gcc-12 -O2): (policy, vl, n) -> instructions.
ISSUE = {("acle_sve_predicated", 128, 1000): 1791, ("acle_sve_cleanup", 128, 1000): 1778,
         ("acle_neon_cleanup", 128, 1000): 1544, ("acle_sve_predicated", 512, 1000): 482,
         ("acle_sve_cleanup", 512, 1000): 510, ("acle_neon_cleanup", 512, 1000): 1544,
         ("acle_sve_predicated", 128, 17): 60, ("acle_sve_cleanup", 128, 17): 52}


def load(path, whole_calls=False):
    """(kernel, policy, vl) -> {n: count}: the call at n minus the call at n = 0, or with
    whole_calls the call at n itself (the n = 0 segment added back: fixed per-call work included)."""
    data = collections.defaultdict(dict)
    with open(path) as f:
        for r in csv.DictReader(f):
            extra = int(r.get("at_n0") or 0) if whole_calls else 0
            data[(r["kernel"], r["policy"], int(r["vl_bits"]))][int(r["n"])] = int(r["instructions"]) + extra
    return data


def series(data, kernel, policy, vl):
    """NEON does not depend on the SVE length: its 128-bit run serves every panel."""
    return data.get((kernel, policy, 128 if policy in NEON or policy == "acle_neon_cleanup" else vl))


def plot(data, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(KERNELS), len(VLS) + 1, figsize=(20, 13), squeeze=False)
    for row, kernel in enumerate(KERNELS):
        for col in range(len(VLS) + 1):
            ax = axes[row][col]
            vl = VLS[col] if col < len(VLS) else 128
            zoom = col == len(VLS)
            for policy, (label, colour, ls) in STYLE.items():
                s = series(data, kernel, policy, vl)
                if not s:
                    continue
                ns = sorted(n for n in s if not zoom or n <= 64)
                ax.plot(ns, [s[n] for n in ns], ls, color=colour, label=label, lw=1.2 if ls == "-" else 1.6,
                        drawstyle="steps-post" if zoom else "default")
            ax.set_title("%s, SVE %d bits%s" % (TITLES[kernel], vl, ", n <= 64" if zoom else ""), fontsize=10)
            ax.set_xlabel("n")
            ax.set_ylabel("instructions (minus n = 0)")
            ax.grid(alpha=0.3)
            if col == 0:
                ax.legend(fontsize=8)
    fig.suptitle("Executed instructions per call, qemu-aarch64 -singlestep (gcc-12 -O2); NEON is the same in every column",
                 fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(out, dpi=80)
    print("wrote", out)


def table(data, ns=(17, 100, 1000)):
    policies = [p for p in STYLE]
    print("| kernel | policy | " + " | ".join("n=%d @%d" % (n, vl) for n in ns for vl in VLS) + " |")
    print("|---|---|" + "---:|" * (len(ns) * len(VLS)))
    for kernel in KERNELS:
        for policy in policies:
            if not any(series(data, kernel, policy, vl) for vl in VLS):
                continue
            cells = []
            for n in ns:
                for vl in VLS:
                    s = series(data, kernel, policy, vl) or {}
                    cells.append(str(s.get(n, "")))
            print("| %s | %s | %s |" % (kernel, policy, " | ".join(cells)))


def goals(data, title="Goals:"):
    print()
    print(title)
    for kernel in KERNELS:
        for vl in VLS:
            pred = series(data, kernel, "sve_predicated", vl)
            if not pred:
                continue
            # 1. predicated never above the cleanup policy.
            clean = series(data, kernel, "sve_cleanup", vl)
            worse = [(n, pred[n], clean[n]) for n in sorted(pred) if n in clean and pred[n] > clean[n]]
            print("  %s %d: predicated > cleanup at %d of %d n%s" % (
                kernel, vl, len(worse), len(pred),
                (": " + ", ".join("n=%d %d>%d" % w for w in worse[:12]) + (" ..." if len(worse) > 12 else "")) if worse else ""))
            # 2. never above the hand-written loops (times_two only).
            for hand in ("acle_sve_predicated", "acle_sve_cleanup", "acle_neon_cleanup"):
                h = series(data, kernel, hand, vl)
                if not h:
                    continue
                worse = [(n, pred[n], h[n]) for n in sorted(pred) if n in h and pred[n] > h[n]]
                print("    vs %s: above at %d n%s" % (hand, len(worse), (": " + ", ".join("n=%d %d>%d" % w for w in worse[:12])) if worse else ""))
        # 3. 128 bits within 5% of the best NEON variant.
        pred = series(data, kernel, "sve_predicated", 128)
        neon = [series(data, kernel, p, 128) for p in NEON if series(data, kernel, p, 128)]
        if pred and neon:
            best = {n: min(s[n] for s in neon if n in s) for n in pred}
            r1000 = pred[1000] / best[1000] if 1000 in pred else float("nan")
            big = [pred[n] / best[n] for n in pred if n >= 100 and best[n]]
            over = [n for n in pred if n >= 1 and best[n] and pred[n] > 1.05 * best[n]]
            print("  %s 128: predicated / best NEON at n=1000 %.3f, max over n>=100 %.3f; above 105%% at %d n (%s)" % (
                kernel, r1000, max(big, default=float("nan")), len(over), ", ".join(map(str, sorted(over)[:15])) + (" ..." if len(over) > 15 else "")))
        # 4. proportional to the vector length for n >= 256.
        for policy in ("sve_predicated", "sve_cleanup"):
            c128 = series(data, kernel, policy, 128)
            if not c128:
                continue
            for vl in (256, 512):
                c = series(data, kernel, policy, vl)
                ratios = [c[n] * vl / 128 / c128[n] for n in c128 if n >= 256 and n in c]
                if not ratios:
                    continue
                print("  %s %s: count(%d) / (count(128) * 128/%d) over n>=256: min %.2f, max %.2f (goal <= 1.10)" % (
                    kernel, policy, vl, vl, min(ratios), max(ratios)))
    print()
    print("Hand-written loops, this run vs the issue's figures:")
    for (policy, vl, n), want in ISSUE.items():
        s = series(data, "times_two", policy, vl) or {}
        print("  %s %d bits n=%d: %s (issue: %d)" % (policy, vl, n, s.get(n, "-"), want))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="?", default=os.path.join(HERE, "results.csv"))
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "docs", "arm_icount.png"))
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()
    data = load(args.csv)
    table(data)
    goals(data)
    # The same checks on whole calls: a policy cannot move work into the subtracted n = 0 call.
    whole = load(args.csv, whole_calls=True)
    print()
    print("Whole calls at n = 0 (subtracted above; includes the driver's marker call and loop):")
    table(whole, ns=(0,))
    goals(whole, "Goals on whole calls (the n = 0 call included):")
    if not args.no_plot:
        plot(data, args.output)


if __name__ == "__main__":
    main()
