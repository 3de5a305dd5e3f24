#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Deterministic test audio for the speexdsp differential run (bench/lift/real_projects.py).

Writes raw 16-bit little-endian mono PCM: a logarithmic sine sweep plus seeded noise
(`--kind sweep`), or the two signals testecho reads (`--kind echo`: the far-end "speaker"
signal, and a "mic" signal = the speaker through a short decaying echo path + near-end noise).
Only the standard library; the same arguments give the same bytes on every host.
"""
import argparse
import math
import random
import struct


def sweep(rate, seconds, seed, f0=60.0, f1=None, noise=0.08, amp=0.5):
    f1 = f1 or rate * 0.45
    n = int(rate * seconds)
    rng = random.Random(seed)
    out = []
    k = math.log(f1 / f0)
    for i in range(n):
        t = i / rate
        # phase of an exponential sweep f0 -> f1 over `seconds`
        phase = 2 * math.pi * f0 * seconds / k * (math.exp(t / seconds * k) - 1)
        env = 0.5 + 0.5 * math.sin(2 * math.pi * 0.7 * t)  # slow level changes (speech-like)
        v = amp * env * math.sin(phase) + noise * rng.gauss(0.0, 1.0)
        out.append(v)
    return out


def to_pcm(samples):
    data = bytearray()
    for v in samples:
        s = int(round(v * 32767.0))
        s = max(-32768, min(32767, s))
        data += struct.pack('<h', s)
    return bytes(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kind', choices=['sweep', 'echo'], default='sweep')
    ap.add_argument('--rate', type=int, default=8000)
    ap.add_argument('--seconds', type=float, default=4.0)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', required=True, help='sweep: the PCM file; echo: the mic file')
    ap.add_argument('--speaker', help='echo: the speaker (far-end) file')
    a = ap.parse_args()
    if a.kind == 'sweep':
        with open(a.out, 'wb') as f:
            f.write(to_pcm(sweep(a.rate, a.seconds, a.seed)))
        return
    far = sweep(a.rate, a.seconds, a.seed, f0=100.0, noise=0.15, amp=0.4)
    rng = random.Random(a.seed + 1000)
    taps = [(d, 0.6 * math.exp(-d / 40.0) * (1 if d % 3 else -1)) for d in range(8, 200, 7)]
    mic = []
    for i in range(len(far)):
        e = sum(g * far[i - d] for d, g in taps if i >= d)
        near = 0.1 * math.sin(2 * math.pi * 310 * i / a.rate) * (1 if (i // a.rate) % 2 else 0)
        mic.append(e + near + 0.02 * rng.gauss(0.0, 1.0))
    with open(a.out, 'wb') as f:
        f.write(to_pcm(mic))
    with open(a.speaker, 'wb') as f:
        f.write(to_pcm(far))


if __name__ == '__main__':
    main()
