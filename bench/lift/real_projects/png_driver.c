/* Differential driver for libpng (bench/lift/real_projects.py): the read and write transforms
 * that pngtest leaves alone, on every PNG named on the command line, each result printed as a
 * hash of its rows (or of the written bytes).
 *
 *   swap      16-bit samples byte-swapped (png_do_swap)
 *   compose   alpha and tRNS composed over a background without gamma (png_do_compose), expanded
 *             first; 8- and 16-bit, gray and RGB
 *   alpha     inverted and swapped alpha, BGR order, inverted gray (png_do_invert_alpha, ...)
 *   filler    gray to RGB with a filler byte after, 16-bit stripped
 *   gray      RGB to gray (png_do_rgb_to_gray), errors reported as warnings
 *   write     the expanded image written again with every row filter, its alpha inverted and its
 *             16-bit samples swapped on the way (pngwtran, pngwutil's filters): the bytes hashed
 *
 * usage: png_driver FILE.png...      (a file libpng rejects prints "error" for that transform)
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

static uint64_t fnv(uint64_t h, const unsigned char* p, size_t n) {
    for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 1099511628211ULL;
    return h;
}

static void quiet(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

struct sink { unsigned char* data; size_t size, cap; };
static void put(png_structp png, png_bytep data, size_t n) {
    struct sink* s = (struct sink*)png_get_io_ptr(png);
    if (s->size + n > s->cap) {
        s->cap = (s->size + n) * 2;
        s->data = (unsigned char*)realloc(s->data, s->cap);
    }
    memcpy(s->data + s->size, data, n);
    s->size += n;
}
static void flush(png_structp png) { (void)png; }

enum { SWAP, COMPOSE, ALPHA, FILLER, GRAY, WRITE, TRANSFORMS };
static const char* names[TRANSFORMS] = {"swap", "compose", "alpha", "filler", "gray", "write"};

/* What a run allocates, outside its frame: libpng's errors longjmp back into it. */
static png_bytep* rows;
static png_uint_32 height;
static struct sink out;

/* The rows written again with every row filter, alpha inverted and 16-bit samples swapped on the way. */
static void write_back(const char* path, int t, png_structp png, png_infop info, uint64_t h) {
    png_structp w = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, quiet);
    png_infop wi = png_create_info_struct(w);
    if (setjmp(png_jmpbuf(w))) {
        printf("%s %s: write error\n", path, names[t]);
        png_destroy_write_struct(&w, &wi);
        return;
    }
    png_set_write_fn(w, &out, put, flush);
    png_set_IHDR(w, wi, png_get_image_width(png, info), height, png_get_bit_depth(png, info), png_get_color_type(png, info),
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(w, 0, PNG_ALL_FILTERS);
    png_write_info(w, wi);
    png_set_invert_alpha(w);
    if (png_get_bit_depth(png, info) == 16) png_set_swap(w);
    png_write_image(w, rows);
    png_write_end(w, NULL);
    png_destroy_write_struct(&w, &wi);
    printf("%s %s: %zu bytes %016llx\n", path, names[t], out.size, (unsigned long long)fnv(h, out.data, out.size));
}

static void run(const char* path, int t) {
    FILE* f = fopen(path, "rb");
    if (!f) { printf("%s %s: cannot open\n", path, names[t]); return; }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, quiet);
    png_infop info = png_create_info_struct(png);
    rows = NULL;
    height = 0;
    out.data = NULL, out.size = out.cap = 0;
    if (setjmp(png_jmpbuf(png))) {
        printf("%s %s: error\n", path, names[t]);
        goto done;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    int depth = png_get_bit_depth(png, info), color = png_get_color_type(png, info);
    switch (t) {
        case SWAP: png_set_swap(png); break;
        case COMPOSE: {
            png_color_16 bg;
            png_set_expand(png);
            const int top = depth == 16 ? 65535 : 255;
            bg.index = 0;
            bg.red = (png_uint_16)(top / 3); bg.green = (png_uint_16)(top / 2); bg.blue = (png_uint_16)(top / 5);
            bg.gray = (png_uint_16)(top / 4);
            png_set_background(png, &bg, PNG_BACKGROUND_GAMMA_SCREEN, 0, 1.0);
            break;
        }
        case ALPHA:
            png_set_invert_alpha(png); png_set_swap_alpha(png); png_set_bgr(png); png_set_invert_mono(png);
            break;
        case FILLER:
            png_set_expand(png); png_set_gray_to_rgb(png); png_set_filler(png, 0xA5, PNG_FILLER_AFTER); png_set_strip_16(png);
            break;
        case GRAY:
            if (color & PNG_COLOR_MASK_COLOR) png_set_rgb_to_gray_fixed(png, 1, -1, -1);
            break;
        case WRITE: png_set_expand(png); break;
    }
    png_read_update_info(png, info);
    height = png_get_image_height(png, info);
    const size_t bytes = png_get_rowbytes(png, info);
    rows = (png_bytep*)calloc(height ? height : 1, sizeof *rows);
    for (png_uint_32 r = 0; r < height; r++) rows[r] = (png_bytep)calloc(bytes ? bytes : 1, 1);
    png_read_image(png, rows);
    png_read_end(png, NULL);
    const uint64_t start = 1469598103934665603ULL;
    if (t != WRITE) {
        /* Only the row's pixels: the bits after the last one of a row of 1/2/4-bit samples are
           whatever the row buffer held before (libpng leaves them), not part of the result. */
        const size_t bits = (size_t)png_get_image_width(png, info) * png_get_channels(png, info) * png_get_bit_depth(png, info);
        uint64_t h = start;
        for (png_uint_32 r = 0; r < height; r++) {
            h = fnv(h, rows[r], bits / 8);
            if (bits % 8) {
                const unsigned char last = (unsigned char)(rows[r][bits / 8] & (0xFF00u >> (bits % 8)));
                h = fnv(h, &last, 1);
            }
        }
        printf("%s %s: %ux%u depth %d color %d -> %zu bytes/row %016llx\n", path, names[t], png_get_image_width(png, info), height,
               depth, color, bytes, (unsigned long long)h);
        goto done;
    }
    write_back(path, t, png, info, start);
done:
    png_destroy_read_struct(&png, &info, NULL);
    if (rows)
        for (png_uint_32 r = 0; r < height; r++) free(rows[r]);
    free(rows);
    free(out.data);
    fclose(f);
}

int main(int argc, char** argv) {
    for (int k = 1; k < argc; k++)
        for (int t = 0; t < TRANSFORMS; t++) run(argv[k], t);
    return 0;
}
