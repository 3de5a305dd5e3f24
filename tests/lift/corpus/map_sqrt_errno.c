// SPDX-License-Identifier: Apache-2.0
// `sqrt` of a value that may be negative under C's default -fmath-errno (speexdsp's gain floor,
// darknet's `d[j] = sqrt(d[j])`): C sets errno to EDOM for an argument below zero (not for -0.0
// or NaN). The kernel reports whether any argument was below zero and the rewrite sets errno then,
// so a caller that reads errno sees what the loop would have left (read back here). A sqrt in a
// branch, which runs for some elements only, keeps the loop.
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static float a[4200], b[4200];

static void root_in_place(float *x, int n)
{
   int j;
   // expect: lifted root_in_place_lifted (map f32 -> f32 (1 input, 1 output))
   for (j = 0; j < n; ++j) x[j] = sqrt(x[j]);
}

static void gain_floor(float *g, const float *noise, const float *echo, float nf, float ef, int len)
{
   int i;
   // expect: lifted gain_floor_lifted (map f32 -> f32 (2 inputs, 1 output))
   for (i=0;i<len;i++)
      g[i] = 32767*sqrt(nf*noise[i] + ef*echo[i])/sqrt(1+noise[i] + echo[i]);
}

static void root_f64(double *y, const float *x, int n)
{
   int i;
   // expect: lifted root_f64_lifted (map f32 -> f64 (1 input, 1 output))
   for (i = 0; i < n; i++) y[i] = sqrt((double)x[i] - 0.5);
}

static void root_in_branch(float *x, int n)
{
   int j;
   // expect: not lifted: a call in a branch
   for (j = 0; j < n; ++j) x[j] = x[j] > 1 ? sqrtf(x[j] - 2) : 0;
}

static uint64_t hash(const void* v, size_t bytes, uint64_t h) {
   const unsigned char* p = (const unsigned char*)v;
   size_t i;
   // expect: not lifted:
   for (i = 0; i < bytes; i++) h = h * 1000003u + p[i];
   return h;
}

uint64_t sqrt_errno(const float* x, int n) {
   uint64_t h = 0;
   double d[2100];
   if (n > 4000) n = 4000;
   if (n < 0) n = 0;
   memset(a, 0, sizeof a);
   memset(b, 0, sizeof b);
   memset(d, 0, sizeof d);
   memcpy(a, x, (size_t)n * sizeof(float));
   errno = 0;
   root_in_place(a, n);
   h = h * 31 + (uint64_t)errno;
   errno = 0;
   gain_floor(b, x, a, 0.5f, 0.25f, n);  /* constants: two different NaNs never meet (which one an
                                          operation returns is the compiler's choice) */
   h = h * 31 + (uint64_t)errno;
   errno = 0;
   root_f64(d, x, n / 2);
   h = h * 31 + (uint64_t)errno;
   errno = 0;
   memcpy(a, x, (size_t)n * sizeof(float));
   root_in_branch(a, n);
   h = h * 31 + (uint64_t)errno;
   h = hash(d, sizeof d, h);
   h = hash(b, sizeof b, h);
   return hash(a, sizeof a, h);
}
