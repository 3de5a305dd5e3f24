#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Strided inputs on Arm: lane-by-lane loads (or gathers) against structure loads, in LLVM's models.

For every element type and constant stride 2..4 it writes the map spec y = x + x (x strided,
runtime n, tail predicated), generates it with each simdgen given (for example the commit before
structure loads and the current one), compiles the NEON and SVE variants with
aarch64-linux-gnu-g++ -O2 and runs their main loops through bench/arm_icount/mca.py (cycles per
iteration; an iteration is one vector of x). The generator's choice (map_builder.cpp,
structureReadAhead) follows this table.

    git worktree add /tmp/before <commit>; cmake -S /tmp/before -B /tmp/before/build -G Ninja -DSIMDGEN_WITH_CLANG=OFF -DSIMDGEN_BUILD_TESTS=OFF
    ninja -C /tmp/before/build simdgen
    bench/arm_icount/strided_mca.py /tmp/before/build/generator/simdgen build/generator/simdgen
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [(t, k) for t in ("i8", "i16", "f32", "f64") for k in (2, 3, 4)]


def row(simdgen, work, dtype, stride, variant):
    name = "s_%s_%d" % (dtype, stride)
    spec = os.path.join(work, name + ".json")
    with open(spec, "w") as f:
        f.write('{"simdgen": 1, "name": "%s", "kind": "map", "shape": ["n"], '
                '"inputs": [{"name": "x", "dtype": "%s", "stride": %d}], '
                '"outputs": [{"name": "y", "dtype": "%s", "expr": "x + x"}], '
                '"targets": ["sve", "neon", "scalar"], "tail": "predicated"}' % (name, dtype, stride, dtype))
    subprocess.run([simdgen, "generate", spec, "-o", work], check=True, capture_output=True)
    obj = os.path.join(work, name + ".o")
    subprocess.run(["aarch64-linux-gnu-g++", "-O2", "-c", os.path.join(work, name + ".cpp"), "-o", obj], check=True)
    out = subprocess.run([sys.executable, os.path.join(HERE, "mca.py"), "--exe", obj, "--functions", name + "_" + variant],
                         check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    cells = [c.strip() for c in out.strip("|").split("|")]
    return cells[1], [c.split()[0] for c in cells[3:]]  # instructions, cycles per core


def main():
    simdgens = sys.argv[1:]
    if not simdgens:
        raise SystemExit(__doc__)
    print("| variant | x | " + " | ".join("`%s`: instructions, cycles N2 / V2 / V1 / A64FX / A72" % s for s in simdgens) + " |")
    print("|---|---|" + "---|" * len(simdgens))
    for variant in ("neon", "sve"):
        for dtype, stride in CASES:
            cells = []
            for k, simdgen in enumerate(simdgens):
                with tempfile.TemporaryDirectory() as work:
                    n, cycles = row(simdgen, work, dtype, stride, variant)
                cells.append("%s, %s" % (n, " / ".join(c for c in cycles if c != "-")))
            print("| %s | %s stride %d | %s |" % (variant, dtype, stride, " | ".join(cells)))


if __name__ == "__main__":
    main()
