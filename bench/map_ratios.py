#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Ratios of the best peer's time (Highway, the plain gcc-12 and clang-19 loops) to a variant's,
from the JSON of bench/run_map_benchmarks.sh: medians over n 1-63, 64-1023 and >= 1024, per
kernel. Above 1, simdgen is faster. Usage: map_ratios.py PREFIX.map.json [VARIANT_PREFIX]
(default simdgen.avx2: the variant CPUs without AVX-512 run; simdgen.avx512 on others)."""
import collections
import json
import statistics
import sys

def load(path):
    t = collections.defaultdict(dict)
    for b in json.load(open(path))['benchmarks']:
        if b.get('aggregate_name') != 'median': continue
        p = b['name'].split('/')
        if len(p) < 4: continue
        n = int(p[3].split('_')[0])
        t[p[1]].setdefault(p[2], {})[n] = b['real_time']
    return t
t = load(sys.argv[1])
variant = sys.argv[2] if len(sys.argv) > 2 else 'simdgen.avx2'
print('| kernel | n 1-63 | n 64-1023 | n >= 1024 | dispatched / variant (median) |')
print('| --- | ---: | ---: | ---: | ---: |')
for k in sorted(t):
    if k == 'call_floor': continue
    subj = [s for s in t[k] if s.startswith(variant)][0]
    peers = [s for s in t[k] if s == 'hwy' or s.startswith('plain.')]
    r = collections.defaultdict(list); disp = []
    for n, v in t[k][subj].items():
        best = min(t[k][p][n] for p in peers if n in t[k][p])
        g = 0 if n < 64 else 1 if n < 1024 else 2
        r[g].append(best / v)
        if n in t[k].get('simdgen', {}): disp.append(t[k]['simdgen'][n] / v)
    print(f"| {k} | {statistics.median(r[0]):.2f} | {statistics.median(r[1]):.2f} | {statistics.median(r[2]):.2f} | {statistics.median(disp):.2f} |")
