#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws random reduce, arg_reduce and transpose specs to build and run as generated code.

  tests/random/draw_specs.py OUT_DIR FIRST_SEED COUNT

writes OUT_DIR/rred<seed>.json, rarg<seed>.json and rtr<seed>.json for each seed (the same seed
gives the same specs everywhere): every dtype, op, strategy, tail, schedule and index policy,
static and runtime extents and strides (odd sizes, names the generated code uses for its own
locals), batches, in-place and streamed transposes. How to build them into exec tests natively
and under qemu: docs/design.md, "Tests". (Maps and contractions have their draws in the unit
tests: test_map_random.cpp, test_contraction_random.cpp.)
"""
import json, random, sys, os

INTS = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"]
FLOATS = ["f32", "f64"]
WIDER = {"i8": ["i8", "i16", "i32"], "u8": ["u8", "u16", "u32"], "i16": ["i16", "i32", "i64"],
         "u16": ["u16", "u32", "u64"], "i32": ["i32", "i64"], "u32": ["u32", "u64"], "i64": ["i64"],
         "u64": ["u64"], "f32": ["f32", "f64"], "f64": ["f64"]}
ODD_NAMES = ["n", "m", "i", "j", "acc0", "mask", "rows_", "cols_", "len", "x", "k", "lanes", "vl", "step", "tail", "p0"]
TARGETS = ["avx512", "avx2", "sve", "sve2", "neon", "scalar"]

def names(r, k):
    pool = ODD_NAMES[:]
    r.shuffle(pool)
    return pool[:k]

def extent(r, name, small=False):
    if r.random() < 0.5:
        return name
    return r.choice([1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 129, 255, 257] if not small else [1, 2, 3, 5, 7, 8, 16, 17])

def targets(r):
    t = ["avx512", "avx2", "sve", "sve2", "neon", "scalar"]
    if r.random() < 0.3: t[0] = "avx512+vnni"
    if r.random() < 0.3: t[1] = "avx2+fma"
    if r.random() < 0.3: t[4] = "neon+dotprod"
    return t

def shape2(r, nm, rank2):
    sh = [extent(r, nm[0]), extent(r, nm[1])] if rank2 else [extent(r, nm[1])]
    inp = {"shape": sh}
    if rank2 and r.random() < 0.5:
        if isinstance(sh[1], int) and r.random() < 0.5:
            inp["row_stride"] = sh[1] + r.choice([0, 1, 3, 16, 64])
        else:
            inp["row_stride"] = nm[2]
    return inp

def finish(r, s, knobs, scalar_tail_chance):
    """Half the time a schedule of some of the knobs (key, chance, draw); then the tail and targets."""
    if r.random() < 0.5:
        sch = {key: draw() for key, chance, draw in knobs if r.random() < chance}
        if sch: s["schedule"] = sch
    if r.random() < scalar_tail_chance:
        s["tail"] = "scalar"
    s["targets"] = targets(r)
    return s

def reduce_spec(r, seed):
    dt = r.choice(INTS + FLOATS + FLOATS)
    ops = ["add", "mul", "min", "max"] + (["and", "or", "xor"] if dt in INTS else [])
    op = r.choice(ops)
    rank2 = r.random() < 0.8
    nm = names(r, 3)
    inp = {"dtype": dt}
    inp.update(shape2(r, nm, rank2))
    s = {"simdgen": 1, "name": f"rred{seed}", "kind": "reduce", "op": op, "input": inp}
    if r.random() < 0.6:
        s["output"] = {"dtype": r.choice(WIDER[dt])}
    axis = 1
    if rank2 and r.random() < 0.35:
        axis = 0; s["axis"] = 0
    if axis == 1 and r.random() < 0.7:
        s["strategy"] = r.choice(["auto", "inner_parallel", "inner_reduction", "vector_accumulator"])
    if r.random() < 0.25:
        if dt in FLOATS and s.get("strategy") in ("inner_reduction", "vector_accumulator"):
            pass
        else:
            s["order"] = "sequential"
    return finish(r, s, [("accumulators", 0.6, lambda: r.randint(1, 16)), ("unroll", 0.5, lambda: r.randint(1, 8)),
                         ("rows", 0.4, lambda: r.randint(1, 16))], 0.4)

def arg_spec(r, seed):
    dt = r.choice(INTS + FLOATS)
    rank2 = r.random() < 0.7
    nm = names(r, 3)
    inp = {"dtype": dt}
    inp.update(shape2(r, nm, rank2))
    s = {"simdgen": 1, "name": f"rarg{seed}", "kind": "arg_reduce", "op": r.choice(["argmin", "argmax"]),
         "index": r.choice(["first", "last"]), "index_type": r.choice(["i32", "i64"]), "input": inp}
    if dt in FLOATS and r.random() < 0.6:
        s["nan"] = r.choice(["ignore", "propagate"])
    if r.random() < 0.4:
        lo, hi = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767), "u16": (0, 65535),
                  "i32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1), "i64": (-2**63, 2**63 - 1), "u64": (0, 2**64 - 1)}.get(dt, (-1e30, 1e30))
        v = r.choice([lo, hi, 0, 3, -5 if lo < 0 else 5])
        if dt in FLOATS: v = r.choice([0.0, -0.0, 1.5, -1e30, 1e30, 3.0])
        idx = r.choice([-1, 0, 7, -7, 2**31 - 1, -2**31] if s["index_type"] == "i32" else [-1, 0, 2**40, -2**63])
        s["initial"] = {"value": v, "index": idx}
    return finish(r, s, [("accumulators", 0.6, lambda: r.randint(1, 16)),
                         ("block", 0.6, lambda: r.choice([64, 65, 96, 100, 128, 256, 1000, 4096]))], 0.3)

def transpose_spec(r, seed):
    dt = r.choice(INTS + FLOATS)
    nm = names(r, 7)
    batch = r.random() < 0.3
    in_place = r.random() < 0.2
    if in_place:
        n = extent(r, nm[1])
        sh = [n, n]
    else:
        sh = [extent(r, nm[1]), extent(r, nm[2])]
    if batch:
        sh = [extent(r, nm[0], small=True)] + sh
    inp = {"dtype": dt, "shape": sh}
    out = {}
    if r.random() < 0.5:
        if isinstance(sh[-1], int) and r.random() < 0.5:
            inp["row_stride"] = sh[-1] + r.choice([0, 1, 5, 16])
        else:
            inp["row_stride"] = nm[3]
    if batch and r.random() < 0.4:
        inp["batch_stride"] = nm[4]
    if in_place:
        out["in_place"] = True
    else:
        if r.random() < 0.5:
            if isinstance(sh[-2], int) and r.random() < 0.5:
                out["row_stride"] = sh[-2] + r.choice([0, 2, 7])
            else:
                out["row_stride"] = nm[5] if r.random() < 0.8 else inp.get("row_stride", nm[5]) if isinstance(inp.get("row_stride"), str) else nm[5]
        if batch and r.random() < 0.4:
            out["batch_stride"] = nm[6]
        if r.random() < 0.3:
            out["stores"] = r.choice(["auto", "cached", "streaming"])
    s = {"simdgen": 1, "name": f"rtr{seed}", "kind": "transpose", "input": inp}
    if out: s["output"] = out
    if r.random() < 0.3: s["tail"] = "scalar"
    if r.random() < 0.3: s["strategy"] = r.choice(["auto", "unpack", "half_rows"])
    s["targets"] = ["avx512", "avx2", "sve", "neon", "scalar"]
    return s

def main():
    out = sys.argv[1]; first = int(sys.argv[2]); count = int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    for seed in range(first, first + count):
        r = random.Random(seed)
        for f in (reduce_spec, arg_spec, transpose_spec):
            s = f(r, seed)
            with open(os.path.join(out, s["name"] + ".json"), "w") as fh:
                json.dump(s, fh, indent=1)

main()
