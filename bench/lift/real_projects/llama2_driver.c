/* Differential driver for llama2.c's run.c (bench/lift/real_projects.py).
 *
 * Compiles the checkout's run.c into this translation unit (its main() renamed), then runs
 * forward() for STEPS positions on a checkpoint and prints, per step, an FNV-1a hash of the
 * logits' bytes, of the residual stream x and of the attention scores, a few logits in %a,
 * and the token the sampler picks (temperature 1, top-p 0.9, fixed seed), so that any bit
 * that changes anywhere in the forward pass shows in stdout.
 *
 * usage: llama2_driver CHECKPOINT TOKENIZER [STEPS]
 */
#define main llama2_run_main
#include "run.c"
#undef main

static unsigned long long fnv1a(const void* p, size_t n) {
    const unsigned char* b = (const unsigned char*)p;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ULL; }
    return h;
}

int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s CHECKPOINT TOKENIZER [STEPS]\n", argv[0]); return 2; }
    int steps = argc > 3 ? atoi(argv[3]) : 64;
    Transformer t;
    build_transformer(&t, argv[1]);
    if (steps > t.config.seq_len) steps = t.config.seq_len;
    Tokenizer tok;
    build_tokenizer(&tok, argv[2], t.config.vocab_size);
    Sampler greedy, nucleus, plain;
    build_sampler(&greedy, t.config.vocab_size, 0.0f, 0.9f, 42);
    build_sampler(&nucleus, t.config.vocab_size, 1.0f, 0.9f, 42);
    build_sampler(&plain, t.config.vocab_size, 0.7f, 1.0f, 7);
    int V = t.config.vocab_size;
    float* copy = malloc(V * sizeof(float));
    int token = 1;
    for (int pos = 0; pos < steps; pos++) {
        float* logits = forward(&t, token, pos);
        printf("pos %d token %d logits %016llx x %016llx att %016llx  %a %a %a %a\n", pos, token,
               fnv1a(logits, V * sizeof(float)), fnv1a(t.state.x, t.config.dim * sizeof(float)),
               fnv1a(t.state.att, t.config.n_heads * (pos + 1) * sizeof(float)),
               logits[0], logits[1], logits[V / 2], logits[V - 1]);
        memcpy(copy, logits, V * sizeof(float));
        int g = sample(&greedy, copy);
        memcpy(copy, logits, V * sizeof(float));
        int p = sample(&plain, copy);
        printf("  softmax %016llx greedy %d plain %d", fnv1a(copy, V * sizeof(float)), g, p);
        int next = sample(&nucleus, logits);
        printf(" nucleus %d '%s'\n", next, decode(&tok, token, next));
        token = next;
    }
    free(copy);
    free_sampler(&greedy);
    free_sampler(&nucleus);
    free_sampler(&plain);
    free_tokenizer(&tok);
    free_transformer(&t);
    return 0;
}
