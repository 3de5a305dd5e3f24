// SPDX-License-Identifier: Apache-2.0
// Reductions with runtime strides, as darknet's blas.c writes them (`largest = input[i*stride]`
// maxima, `dot += X[i*INCX] * Y[i*INCY]`): the spec's runtime input strides (the kernel reads
// whole vectors at stride 1 and gathers otherwise), called for strides 0, 1 and 2; a negative
// stride (BLAS's backwards increment, which a spec's stride cannot be) runs the loop as written.
// An element read at a fixed address (`w[k]`, `*bias`) is a scalar of the reduction.
#include <stdint.h>
#include <string.h>

static int32_t xs[2 * 100000 + 2], ys[2 * 100000 + 2];
static float fs[2 * 100000 + 2];

static int64_t dot_cpu(int N, int32_t *X, int INCX, int32_t *Y, int INCY)
{
    int i;
    int64_t dot = 0;
    // expect: lifted dot_cpu_lifted (reduce add over
    for(i = 0; i < N; ++i) dot += (int64_t)X[i*INCX] * Y[i*INCY];
    return dot;
}

static float largest_cpu(const float *input, int n, int stride)
{
    int i;
    float largest = -1e30f;
    // expect: lifted largest_cpu_lifted (reduce max over in0
    for(i = 0; i < n; ++i){
        if(input[i*stride] > largest) largest = input[i*stride];
    }
    return largest;
}

struct layout { int stride; };

static int64_t field_sum_cpu(const int32_t *x, int n, const struct layout *l)
{
    int64_t s = 0;
    /* the loop stores nothing: a stride read from memory is the same when the call reads it once */
    // expect: lifted field_sum_cpu_lifted (reduce add over
    for (int i = 0; i < n; ++i) s += x[i * l->stride];
    return s;
}

static int64_t weighted_cpu(const int32_t *x, int n, const int32_t *w, int k, const int32_t *bias)
{
    int64_t s = 0;
    // expect: lifted weighted_cpu_lifted (reduce add over
    for (int i = 0; i < n; ++i) s += (int64_t)x[i] * w[k] + *bias;
    return s;
}

uint64_t strided_reductions(const int32_t* x, const float* f, int n, int which) {
    unsigned w = (unsigned)which;
    /* strides 1 and 1 for which = 0 or 1, else 0, 1 or 2 each */
    int incx = (w & 2) ? (int)(w & 1) * 2 : 1, incy = (w & 4) ? (int)(w >> 3 & 1) * 2 : 1;
    uint64_t h = 0;
    uint32_t b;
    if (n > 100000) n = 100000;
    if (n < 0) n = 0;
    memset(xs, 0, sizeof xs);
    memset(ys, 0, sizeof ys);
    memset(fs, 0, sizeof fs);
    memcpy(xs, x, (size_t)n * sizeof(int32_t));
    memcpy(ys + n, x, (size_t)n * sizeof(int32_t));
    memcpy(fs, f, (size_t)n * sizeof(float));
    h = h * 1000003u + (uint64_t)dot_cpu(n, xs, incx, ys + 1, incy);
    h = h * 1000003u + (uint64_t)dot_cpu(n / 2, xs, incx, xs, incx);
    h = h * 1000003u + (uint64_t)dot_cpu(n / 2, xs + n, -incx, ys, incy);  /* backwards: the loop */
    float big = largest_cpu(fs, n, incx);
    memcpy(&b, &big, 4);
    if (big != big) b = 0x7fc00000u;
    if (big == 0.0f) b = 0;  /* -0.0 and +0.0 tie: either may come out (docs/lift.md) */
    h = h * 1000003u + b;
    h = h * 1000003u + (uint64_t)weighted_cpu(xs, n, ys, n + 3, xs + (n / 3));
    {
        struct layout l = {incx};
        h = h * 1000003u + (uint64_t)field_sum_cpu(xs, n, &l);
    }
    return h;
}
