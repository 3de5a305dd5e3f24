// SPDX-License-Identifier: Apache-2.0
// BLAS-style element-wise loops with runtime strides, as darknet's blas.c writes them
// (`Y[i*INCY] += ALPHA*X[i*INCX]`): the spec's runtime strides, contiguous when 1 and gathered
// (scattered) otherwise; an output stride of 0 or a negative stride runs the loop as written. A
// constant stride other than 1 is the spec's input stride (map_strided_inputs.c); more forms in
// map_runtime_strided_outputs.c.
#include <stdint.h>
#include <string.h>

static float xs[2 * 100000 + 2], ys[2 * 100000 + 2];

static void copy_cpu(int N, float *X, int INCX, float *Y, int INCY)
{
    int i;
    // expect: lifted copy_cpu_lifted (map f32 -> f32 (1 input, 1 output))
    for(i = 0; i < N; ++i) Y[i*INCY] = X[i*INCX];
}

static void axpy_cpu(int N, float ALPHA, float *X, int INCX, float *Y, int INCY)
{
    int i;
    // expect: lifted axpy_cpu_lifted (map f32 -> f32 (2 inputs, 1 output))
    for(i = 0; i < N; ++i) Y[i*INCY] += ALPHA*X[i*INCX];
}

static void scal_cpu(int N, float ALPHA, float *X, int INCX)
{
    int i;
    // expect: lifted scal_cpu_lifted (map f32 -> f32 (1 input, 1 output))
    for(i = 0; i < N; ++i) X[i*INCX] *= ALPHA;
}

static void mul_cpu(int N, float *X, int INCX, float *Y, int INCY)
{
    int i;
    // expect: lifted mul_cpu_lifted (map f32 -> f32 (2 inputs, 1 output))
    for(i = 0; i < N; ++i) Y[INCY*i] *= X[i*INCX];
}

static void shifted_cpu(int N, int OFF, float *X, int INCX, float *Y)
{
    int i;
    // expect: lifted shifted_cpu_lifted (map f32 -> f32 (2 inputs, 1 output))
    for(i = 1; i < N; ++i) Y[i - 1] = X[i*INCX + OFF] - X[i*INCX];
}

static int g_inc = 1;

static void global_stride_cpu(int N, float *X, float *Y)
{
    int i;
    // a global stride is read once by the call, which checks that no store reaches it
    // expect: lifted global_stride_cpu_lifted
    for(i = 0; i < N; ++i) Y[i*g_inc] = X[i] * 2.0f;
}

struct layout { int inc; };

static void field_stride_cpu(int N, const struct layout *l, float *X, float *Y)
{
    int i;
    // a stride read from memory: the same (map_runtime_strided_outputs.c stores into one)
    // expect: lifted field_stride_cpu_lifted
    for(i = 0; i < N; ++i) Y[i] = X[i*l->inc] * 3.0f;
}

static void constant_stride_cpu(int N, float *X, float *Y)
{
    int i;
    // expect: lifted constant_stride_cpu_lifted (map f32 -> f32 (1 input, 1 output))
    for(i = 0; i < N; ++i) Y[i] = X[i*2];
}

static uint64_t hash(const float* v, int n, uint64_t h) {
    int i;
    // expect: not lifted:
    for (i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], 4);
        if (v[i] != v[i]) b = 0x7fc00000u;
        h = h * 1000003u + b;
    }
    return h;
}

uint64_t strided_blas(const float* x, int n, float alpha, int which) {
    unsigned w = (unsigned)which;
    /* strides 1 and 1 for which = 0 or 1, else 0, 1 or 2 each */
    int incx = (w & 2) ? (int)(w & 1) * 2 : 1, incy = (w & 4) ? (int)(w >> 3 & 1) * 2 : 1, i;
    if (n > 100000) n = 100000;
    // expect: lifted strided_blas_lifted (map f32 -> f32 (1 input, 2 outputs))
    for (i = 0; i < n; i++) {
        xs[2 * i] = x[i];
        xs[2 * i + 1] = -x[i];
    }
    // expect: not lifted: walk back and others forward
    for (i = 0; i < n; i++) {
        ys[2 * i] = x[n - 1 - i];
        ys[2 * i + 1] = 0.5f;
    }
    copy_cpu(n / 2, xs, incx, ys + n, incy);
    axpy_cpu(n, alpha, xs, incx, ys, incy);
    scal_cpu(n, alpha, ys, incy);
    mul_cpu(n, xs + 1, incx, ys, incy);
    axpy_cpu(n - 1, alpha, ys, 1, ys + 1, 1);  /* overlapping: the loop runs */
    if (n > 2) shifted_cpu(n - 1, incx, xs, incx ? incx : 1, ys + n);
    global_stride_cpu(n, xs, ys + n);
    {
        struct layout l = {incx};
        field_stride_cpu(n, &l, xs, ys + n);
    }
    constant_stride_cpu(n / 2, xs, ys);
    return hash(ys, 2 * n, hash(xs, 2 * n, 0));
}
