#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A tiny random llama2.c checkpoint (the legacy format run.c reads) for the differential run.

run.c's read_checkpoint: a header of 7 int32 (dim, hidden_dim, n_layers, n_heads, n_kv_heads,
vocab_size, seq_len; a positive vocab_size means the classifier shares the token embedding),
then float32 weights in memory_map_weights' order: token_embedding_table (vocab, dim),
rms_att_weight (L, dim), wq (L, dim, dim), wk (L, dim, kv_dim), wv (L, dim, kv_dim),
wo (L, dim, dim), rms_ffn_weight (L, dim), w1 (L, hidden, dim), w2 (L, dim, hidden),
w3 (L, hidden, dim), rms_final_weight (dim), then seq_len * head_size of the old RoPE tables
(skipped by run.c), then wcls (vocab, dim) when the classifier is not shared (a negative
vocab_size in the header; the default here: a random model whose logits are the embedding of
the last token repeats that token forever). vocab_size 32000 matches the repository's
tokenizer.bin.
Seeded (random.Random), so the same arguments give the same bytes everywhere.
"""
import argparse
import array
import random
import struct
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', required=True)
    ap.add_argument('--dim', type=int, default=128)
    ap.add_argument('--hidden-dim', type=int, default=352)
    ap.add_argument('--n-layers', type=int, default=2)
    ap.add_argument('--n-heads', type=int, default=4)
    ap.add_argument('--n-kv-heads', type=int, default=2)
    ap.add_argument('--vocab-size', type=int, default=32000)
    ap.add_argument('--seq-len', type=int, default=256)
    ap.add_argument('--seed', type=int, default=1234)
    ap.add_argument('--shared-classifier', action='store_true', help='wcls = the token embeddings')
    a = ap.parse_args()
    if a.dim % a.n_heads or a.n_heads % a.n_kv_heads:
        sys.exit('dim must be a multiple of n_heads, n_heads of n_kv_heads')
    head = a.dim // a.n_heads
    kv = head * a.n_kv_heads
    L, D, H, V = a.n_layers, a.dim, a.hidden_dim, a.vocab_size
    rng = random.Random(a.seed)

    def block(n, scale, offset=0.0):
        u = rng.random
        return array.array('f', (offset + scale * (2.0 * u() - 1.0) for _ in range(n)))

    parts = [
        block(V * D, 1.0),            # token embeddings
        block(L * D, 0.2, 1.0),       # rms_att_weight
        block(L * D * D, D ** -0.5),  # wq
        block(L * D * kv, D ** -0.5),  # wk
        block(L * D * kv, D ** -0.5),  # wv
        block(L * D * D, D ** -0.5),  # wo
        block(L * D, 0.2, 1.0),       # rms_ffn_weight
        block(L * H * D, D ** -0.5),  # w1
        block(L * D * H, H ** -0.5),  # w2
        block(L * H * D, D ** -0.5),  # w3
        block(D, 0.2, 1.0),           # rms_final_weight
        array.array('f', bytes(4 * a.seq_len * head)),  # old freq_cis_real/imag, unused
    ]
    if not a.shared_classifier:
        parts.append(block(V * D, D ** -0.5 * 4.0))  # wcls
    with open(a.out, 'wb') as f:
        f.write(struct.pack('<7i', D, H, L, a.n_heads, a.n_kv_heads,
                            V if a.shared_classifier else -V, a.seq_len))
        for p in parts:
            if sys.byteorder != 'little':
                p.byteswap()
            p.tofile(f)


if __name__ == '__main__':
    main()
