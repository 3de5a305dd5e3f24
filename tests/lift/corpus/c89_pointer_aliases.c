// SPDX-License-Identifier: Apache-2.0
// libpng's pixel loops (pngwtran.c's alpha inversion): a pointer assigned from another one in the
// body (`sp += 3; dp = sp; *dp = 255 - *(sp++);`) is that pointer's position from there on, and a
// pointer stepped several times per iteration (`*(dp++) = *(sp++); *(dp++) = ...;`) walks by the
// sum of its steps. Different pointers set to one row (`sp = dp = row`) are in place when they are
// one address at run time (the call tests `dp == sp`), else the arrays must be apart. After the
// call each pointer holds what the loop leaves in it.
#include <stdint.h>
#include <string.h>

typedef unsigned char png_byte;
typedef png_byte *png_bytep;
typedef uint32_t png_uint_32;

static png_byte rows[2][8 * 4200 + 16];
static long ends[8];  /* where the pointers end, from the row */

static void invert_rgba8(png_bytep row, png_uint_32 row_width)
{
   png_bytep sp, dp;
   png_uint_32 i;
   // expect: lifted invert_rgba8_lifted (map u8 -> u8 (1 input, 1 output))
   for (i = 0, sp = dp = row; i < row_width; i++)
   {
      sp+=3; dp = sp;
      *dp = (png_byte)(255 - *(sp++));
   }
   ends[0] = (long)(sp - row); ends[1] = (long)(dp - row);
}

static void invert_rgba16(png_bytep row, png_uint_32 row_width)
{
   png_bytep sp, dp;
   png_uint_32 i;
   // expect: lifted invert_rgba16_lifted (map u8 -> u8 (2 inputs, 2 outputs))
   for (i = 0, sp = dp = row; i < row_width; i++)
   {
      sp+=6; dp = sp;
      *(dp++) = (png_byte)(255 - *(sp++));
      *dp     = (png_byte)(255 - *(sp++));
   }
   ends[2] = (long)(sp - row); ends[3] = (long)(dp - row);
}

static void invert_ga8(png_bytep out, png_bytep row, png_uint_32 row_width)
{
   png_bytep sp, dp;
   png_uint_32 i;
   // expect: lifted invert_ga8_lifted (map u8 -> u8 (2 inputs, 2 outputs))
   for (i = 0, sp = row, dp = out; i < row_width; i++)
   {
      *(dp++) = *(sp++);
      *(dp++) = (png_byte)(255 - *(sp++));
   }
   ends[4] = (long)(sp - row); ends[5] = (long)(dp - out);
}

static void alias_after_use(png_bytep row, png_bytep out, png_uint_32 row_width)
{
   png_bytep sp = row, dp = out;
   png_uint_32 i;
   /* `dp = sp` ends the body: dp starts every iteration at sp, the first one when out is row
      (the call tests dp == sp; else the loop runs) */
   // expect: lifted alias_after_use_lifted (map u8 -> u8 (1 input, 1 output))
   for (i = 0; i < row_width; i++)
   {
      *dp = (png_byte)(*dp ^ 0x0f);
      sp += 2; dp = sp;
   }
   ends[6] = (long)(dp - row);
}

static void alias_both_sides(png_bytep row, png_uint_32 row_width)
{
   png_bytep sp = row, dp = row;
   png_uint_32 i;
   /* dp read before `dp = sp` and after it: neither sp's position nor its own walk */
   // expect: not lifted:
   for (i = 0; i < row_width; i++)
   {
      *dp = (png_byte)(*dp + 1);
      dp = sp;
      *dp = (png_byte)(*dp ^ 0x0f);
      sp += 2;
   }
   ends[6] += (long)(dp - row);
}

static void steps_cancel(png_bytep row, png_uint_32 row_width)
{
   png_bytep p = row + 1;
   png_uint_32 i;
   /* p is back where it started every iteration: every store is to one element */
   // expect: not lifted:
   for (i = 0; i < row_width; i++)
   {
      *(p++) = (png_byte)(row[i] + 1);
      p--;
   }
   ends[7] = (long)(p - row);
}

static uint64_t hash(const png_byte* v, size_t bytes, uint64_t h) {
   size_t i;
   // expect: not lifted:
   for (i = 0; i < bytes; i++) h = h * 1000003u + v[i];
   return h;
}

uint64_t pointer_aliases(const uint8_t* x, int n, int which) {
   unsigned w = (unsigned)which;
   int i, k;
   uint64_t h = 0;
   if (n > 4000) n = 4000;
   if (n < 0) n = 0;
   // expect: not lifted:
   for (k = 0; k < 2; k++)
      // expect: not lifted:
      for (i = 0; i < 8 * 4200 + 16; i++) rows[k][i] = (png_byte)((n ? x[i % n] : 0) + 3 * i + k);
   invert_rgba8(rows[0] + (w & 3), (png_uint_32)n);
   invert_rgba16(rows[1] + (w & 1), (png_uint_32)(n / 2));
   invert_ga8(rows[0], rows[0], (png_uint_32)n);                       /* in place: dp == sp */
   invert_ga8(rows[1] + 2 * 4200, rows[1], (png_uint_32)n);            /* apart */
   invert_ga8(rows[1] + 1 + (w & 1), rows[1], (png_uint_32)(n / 2));   /* shifted: the loop */
   alias_after_use(rows[0], rows[0], (png_uint_32)n);
   alias_after_use(rows[1], rows[1] + 1 + (w & 1), (png_uint_32)(n / 2));   /* dp != sp: the loop */
   alias_both_sides(rows[0] + 3, (png_uint_32)(n / 2));
   steps_cancel(rows[1], (png_uint_32)n);
   // expect: not lifted:
   for (k = 0; k < 8; k++) h = h * 31 + (uint64_t)ends[k];
   return hash(rows[0], sizeof rows, h);
}
