// SPDX-License-Identifier: Apache-2.0
// Stores of bytes may change any object (C lets character types alias everything): a loop whose
// bound or array pointers are read from memory (`st->len`, `st->out`) keeps them only as long as
// its stores do not reach them. The call checks on the addresses that no byte output covers them
// (a caller whose output runs over the struct's `len` gets the loop, which reads it again after
// every store). Copies of C's plain `char` are bits moved, u8 lanes; plain `char` computed with
// stays a loop (its signedness is the target's).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct state {
    uint8_t* out;
    uint8_t data[64];
    uint8_t len;
};

struct text {
    char* chars;
};

static union {
    struct state st;
    uint8_t bytes[4096];
} arena;
static uint8_t out[100000];
static char copied[100000], text[100000];
static uint8_t srcbuf[4096];

static void bump(struct state* st, const uint8_t* src) {
    int i;
    // expect: lifted bump_lifted (map u8 -> u8 (1 input, 1 output))
    for (i = 0; i < st->len; i++) st->out[i] = (uint8_t)(src[i] + 1);
}

static void copy_text(char* dst, const struct text* t, int n) {
    int j;
    // expect: lifted copy_text_lifted (map u8 -> u8 (1 input, 1 output))
    for (j = 0; j < n; j++) dst[j] = t->chars[j];
}

/* a nest over rows of bytes whose row count is read from memory: one call would read it once */
static void rows_bump(struct state* st, const uint8_t* src) {
    int r, c;
    // expect: not lifted: it stores bytes, which may change
    for (r = 0; r < st->len / 16; r++)
        // expect: lifted rows_bump_lifted (map u8 -> u8 (1 input, 1 output))
        for (c = 0; c < 64; c++) st->out[r * 64 + c] = (uint8_t)(src[r * 64 + c] ^ 0x5a);
}

static int shout(char* s, int n) {
    int i;
    // expect: not lifted: are char
    for (i = 0; i < n; i++) s[i] = (char)(s[i] - 32);
    return n;
}

/* a copy beside a use of the same chars as numbers (whose signedness is the target's) */
static void copy_and_widen(char* dst, int* wide, const char* src, int n) {
    int i;
    // expect: not lifted: are char
    for (i = 0; i < n; i++) {
        dst[i] = src[i];
        wide[i] = src[i] + 1;
    }
}

uint64_t byte_aliasing(const uint8_t* src, int n, int mode) {
    uint64_t h = 0;
    size_t k;
    struct text t;
    if (n < 0) n = 0;
    if (n > 100000) n = 100000;
    memset(&arena, 0, sizeof arena);
    memset(out, 0, sizeof out);
    arena.st.len = (uint8_t)(n < 255 ? n : 255);
    /* mode 1: the output is the struct's data, so stores past 64 bytes overwrite len */
    arena.st.out = (mode & 1) ? arena.st.data : out;
    /* the loop may run up to 255 bytes when its stores change len: read a buffer that long */
    memset(srcbuf, 0, sizeof srcbuf);
    memcpy(srcbuf, src, (size_t)(n < 4096 ? n : 4096));
    bump(&arena.st, srcbuf);
    arena.st.len = (uint8_t)(n < 255 ? n : 255);
    rows_bump(&arena.st, srcbuf);
    // expect: not lifted:
    for (k = 0; k < (size_t)n; k++) text[k] = (char)src[k];
    t.chars = text;
    copy_text(copied, &t, n);
    shout(copied, n / 2);
    {
        static int wide[100000];
        static char again[100000];
        copy_and_widen(again, wide, copied, n);
        // expect: not lifted:
        for (k = 0; k < (size_t)n; k++) h = h * 1000003u + (uint32_t)wide[k] + (uint8_t)again[k];
    }
    // expect: not lifted:
    for (k = offsetof(struct state, data); k < sizeof arena.bytes; k++) h = h * 1000003u + arena.bytes[k];
    // expect: not lifted:
    for (k = 0; k < 256; k++) h = h * 1000003u + out[k];
    // expect: not lifted:
    for (k = 0; k < (size_t)n; k++) h = h * 1000003u + (uint8_t)copied[k];
    return h;
}
