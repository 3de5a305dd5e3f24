// SPDX-License-Identifier: Apache-2.0
// Second counters that step by a runtime amount, as reference BLAS and speexdsp's smallft write
// them (`y[iy] += a * x[ix]; ix += incx; iy += incy;`, `ch[t2] = c1[t2]; t2 += ido;`): positions
// at the spec's runtime strides, read once by the call, which is made when no input stride is
// negative and no output stride below 1; after it each counter holds what the loop leaves. A step
// the loop changes, read from memory, or subtracted stays a loop.
#include <stdint.h>
#include <string.h>

typedef struct { int inc; } stepper;

static float fy[3 * 4100 + 8], fx[3 * 4100 + 8];
static int iy_[3 * 4100 + 8];
static long ends[8];

static void saxpy(int n, float a, const float *x, int incx, float *y, int incy)
{
   int i, ix = 0, iy = 0;
   // expect: lifted saxpy_lifted (map f32 -> f32 (2 inputs, 1 output))
   for (i = 0; i < n; i++) {
      y[iy] += a * x[ix];
      ix += incx;
      iy += incy;
   }
   ends[0] = ix; ends[1] = iy;
}

static void block_copy(float *ch, const float *c1, int l1, int ido, int t1)
{
   int k, t2 = t1;
   // expect: lifted block_copy_lifted (map f32 -> f32 (1 input, 1 output))
   for (k = 0; k < l1; k++) {
      ch[t2] = c1[t2];
      t2 += ido;
   }
   ends[2] = t2;
}

static int idot(int n, const int *x, int incx, const int *y, int incy)
{
   int i, ix = 0, iy = 0, s = 0;
   // expect: lifted idot_lifted (reduce add over in0 * in1 (i32, 2 inputs))
   for (i = 0; i < n; i++) { s += x[ix] * y[iy]; ix += incx; iy += incy; }
   ends[3] = ix;
   return s;
}

static void step_grows(float *y, int n, int inc)
{
   int i, iy = 0;
   // expect: not lifted:
   for (i = 0; i < n; i++) { y[iy] = 1.0f; iy += inc; inc++; }
   ends[4] = iy;
}

static void step_from_memory(float *y, int n, const stepper *st)
{
   int i, iy = 0;
   // expect: not lifted:
   for (i = 0; i < n; i++) { y[iy] = 2.0f; iy += st->inc; }
   ends[5] = iy;
}

static void step_down(float *y, int n, int inc)
{
   int i, iy = 3 * n;
   // expect: not lifted:
   for (i = 0; i < n; i++) { y[iy] = 3.0f; iy -= inc; }
   ends[6] = iy;
}

static uint64_t hash(const void* v, size_t bytes, uint64_t h) {
   const unsigned char* p = (const unsigned char*)v;
   size_t i;
   // expect: not lifted:
   for (i = 0; i < bytes; i++) h = h * 1000003u + p[i];
   return h;
}

uint64_t runtime_steps(const float* x, int n, float a, int which) {
   unsigned w = (unsigned)which;
   int s1 = (int)(w % 3) + 1, s2 = (int)(w / 3 % 3) + 1, i, dot;
   stepper st = {2};
   if (a != a) a = 0.5f;  /* a NaN times a NaN element: which NaN comes out is the compiler's choice */
   if (w % 7 == 3) s1 = 0;
   if (w % 11 == 4) s2 = 0;
   if (n > 4000) n = 4000;
   if (n < 0) n = 0;
   memset(fy, 0, sizeof fy);
   memset(ends, 0, sizeof ends);
   // expect: not lifted:
   for (i = 0; i < 3 * 4100; i++) fx[i] = n ? x[i % n] : 0.0f, iy_[i] = (int)(i * 2654435761u >> 24);
   saxpy(n, a, fx, s1, fy, s2 ? s2 : 1);
   saxpy(n / 2, a, fy, 1, fy + 1, 1);                    /* overlapping: the loop runs */
   saxpy(n / 3, a, fx, 1, fy, s2);                       /* an output stride of 0: the loop */
   block_copy(fy + 2, fx, n / 3, s1, 1);
   dot = idot(n / 3, iy_, s1, iy_ + 1, s2);
   step_grows(fy, n > 80 ? 80 : n, 1);
   step_from_memory(fy + 1, n, &st);
   step_down(fy, n / 2, 1);
   return hash(fy, sizeof fy, hash(ends, sizeof ends, (uint64_t)(uint32_t)dot));
}
