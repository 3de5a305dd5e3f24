// SPDX-License-Identifier: Apache-2.0
// libpng's read transforms walk their rows from the end (pngrtran.c's alpha inversion):
// `*(--dp) = (png_byte)(255 - *(--sp)); sp -= 3; dp = sp;`. An element-wise loop whose every
// position walks back runs its iterations from the other end: the kernel starts at the last
// element the loop reaches. `dp = sp` ending each iteration makes dp start there every time, the
// first time included (the call tests `dp == sp`). A loop that walks one array back and another
// forward, or reads its counter, or accumulates, stays a loop.
#include <stdint.h>
#include <string.h>

typedef unsigned char png_byte;
typedef png_byte *png_bytep;
typedef uint32_t png_uint_32;

static png_byte rows[2][8 * 4200 + 16];
static float fs[2][4200];
static long ends[8];

static void invert_rgba8_back(png_bytep row, size_t rowbytes, png_uint_32 row_width)
{
   png_bytep sp = row + rowbytes;
   png_bytep dp = sp;
   png_uint_32 i;
   // expect: lifted invert_rgba8_back_lifted (map u8 -> u8 (1 input, 1 output))
   for (i = 0; i < row_width; i++)
   {
      *(--dp) = (png_byte)(255 - *(--sp));
      sp-=3;
      dp=sp;
   }
   ends[0] = (long)(sp - row); ends[1] = (long)(dp - row);
}

static void invert_rgba16_back(png_bytep out, png_bytep row, size_t rowbytes, png_uint_32 row_width)
{
   png_bytep sp = row + rowbytes;
   png_bytep dp = out + rowbytes;
   png_uint_32 i;
   /* dp starts where sp does only when out is row: else the loop */
   // expect: lifted invert_rgba16_back_lifted (map u8 -> u8 (2 inputs, 2 outputs))
   for (i = 0; i < row_width; i++)
   {
      *(--dp) = (png_byte)(255 - *(--sp));
      *(--dp) = (png_byte)(255 - *(--sp));
      sp-=6;
      dp=sp;
   }
   ends[2] = (long)(sp - row); ends[3] = (long)(dp - row);
}

static void invert_ga8_back(png_bytep out, png_bytep row, size_t rowbytes, png_uint_32 row_width)
{
   png_bytep sp = row + rowbytes;
   png_bytep dp = out + rowbytes;
   png_uint_32 i;
   // expect: lifted invert_ga8_back_lifted (map u8 -> u8 (2 inputs, 2 outputs))
   for (i = 0; i < row_width; i++)
   {
      *(--dp) = (png_byte)(255 - *(--sp));
      *(--dp) = *(--sp);
   }
   ends[4] = (long)(sp - row); ends[5] = (long)(dp - out);
}

static void scale_back(float *b, const float *a, int n)
{
   int i;
   // expect: lifted scale_back_lifted (map f32 -> f32 (1 input, 1 output))
   for (i = 0; i < n; i++) b[n - 1 - i] = a[n - 1 - i] * 2.0f + 1.0f;
}

static void reverse_copy(float *b, const float *a, int n)
{
   int i;
   // expect: not lifted: walk back and others forward
   for (i = 0; i < n; i++) b[i] = a[n - 1 - i];
}

static void ramp_back(float *b, int n)
{
   int i;
   // expect: not lifted:
   for (i = 0; i < n; i++) b[n - 1 - i] = (float)i;
}

static int sum_back(png_bytep row, int n)
{
   png_bytep p = row + n;
   int i, s = 0;
   // expect: not lifted: walk back and it accumulates
   for (i = 0; i < n; i++) { --p; *p = (png_byte)(*p + 1); s += *p; }
   return s;
}

static uint64_t hash(const png_byte* v, size_t bytes, uint64_t h) {
   size_t i;
   // expect: not lifted:
   for (i = 0; i < bytes; i++) h = h * 1000003u + v[i];
   return h;
}

uint64_t pointers_walk_back(const uint8_t* x, int n, int which) {
   unsigned w = (unsigned)which;
   int i, k;
   uint64_t h = 0;
   if (n > 4000) n = 4000;
   if (n < 0) n = 0;
   // expect: not lifted:
   for (k = 0; k < 2; k++)
      // expect: not lifted:
      for (i = 0; i < 8 * 4200 + 16; i++) rows[k][i] = (png_byte)((n ? x[i % n] : 0) + 3 * i + k);
   // expect: not lifted:
   for (i = 0; i < 4200; i++) fs[0][i] = (float)rows[0][i] - 100.0f, fs[1][i] = 0.0f;
   invert_rgba8_back(rows[0] + (w & 3), 4 * (size_t)n, (png_uint_32)n);
   invert_rgba16_back(rows[1], rows[1], 8 * (size_t)(n / 2), (png_uint_32)(n / 2));        /* dp == sp */
   invert_rgba16_back(rows[1] + 1, rows[1], 8 * (size_t)(n / 2), (png_uint_32)(n / 2));    /* the loop */
   invert_ga8_back(rows[0] + 4 * 4200, rows[0], 2 * (size_t)n, (png_uint_32)n);            /* apart */
   invert_ga8_back(rows[1], rows[1], 2 * (size_t)n, (png_uint_32)n);                       /* in place */
   invert_ga8_back(rows[1] + 1 + (w & 1), rows[1], 2 * (size_t)(n / 2), (png_uint_32)(n / 2));  /* shifted: the loop */
   scale_back(fs[1], fs[0], n);
   scale_back(fs[0] + 1, fs[0], n - 1);                                                    /* overlapping: the loop */
   reverse_copy(fs[1] + 5, fs[0], n / 2);
   ramp_back(fs[0] + 7, n / 2);
   h = (uint64_t)sum_back(rows[0] + 9, n);
   // expect: not lifted:
   for (k = 0; k < 6; k++) h = h * 31 + (uint64_t)ends[k];
   h = hash((const png_byte*)fs, sizeof fs, h);
   return hash(rows[0], sizeof rows, h);
}
