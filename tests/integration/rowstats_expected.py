#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent reference for examples/rowstats: reads a rowstats matrix file (text or binary) and
prints what `rowstats FILE` must print, computed with exact arithmetic (fractions) and rounded to
f32 once. That matches any summation order only when the partial sums are exact in f32, which the
sample data guarantees (quarter multiples of small magnitude).

  rowstats_expected.py FILE                 expected stdout of `rowstats FILE`
  rowstats_expected.py FILE --binary OUT    also write FILE's matrix to OUT in the binary format
"""
import struct
import sys
from fractions import Fraction


def read_matrix(path):
    with open(path, "rb") as f:
        header = f.readline().decode().split()
        rows, cols = int(header[0]), int(header[1])
        if len(header) > 2 and header[2] == "binary":
            flat = list(struct.unpack(f"<{rows * cols}f", f.read(4 * rows * cols)))
        else:
            flat = [f32(float(v)) for v in f.read().decode().split()]
    assert len(flat) == rows * cols, f"{path}: expected {rows * cols} values, found {len(flat)}"
    return rows, cols, [flat[i * cols:(i + 1) * cols] for i in range(rows)]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def fmt(x):
    return "%.9g" % x


def main():
    rows, cols, m = read_matrix(sys.argv[1])
    if len(sys.argv) == 4 and sys.argv[2] == "--binary":
        with open(sys.argv[3], "wb") as f:
            f.write(f"{rows} {cols} binary\n".encode())
            for row in m:
                f.write(struct.pack(f"<{cols}f", *row))
    print(f"rows {rows} cols {cols}")
    for i, row in enumerate(m):
        s = f32(float(sum((Fraction(v) for v in row), Fraction(0))))
        print(f"row {i} sum {fmt(s)} max {fmt(max(row, default=float('-inf')))}")
    for j in range(cols):
        print(f"col {j} max {fmt(max((m[i][j] for i in range(rows)), default=float('-inf')))}")


main()
