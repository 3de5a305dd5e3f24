// SPDX-License-Identifier: Apache-2.0
// Element-wise nests whose positions go through locals of the loops' bodies, as darknet writes
// them (`int index = b*filters*spatial + f*spatial + i; x[index] = ...`): the local is its value.
// A local of the inner body that shadows a parameter of the same name (`int off = r * cols;`
// beside a parameter `off`) must not be read as that parameter: the rewrite calls the kernel
// outside the loops, where the name means the parameter (this was a false lift).
#include <stdint.h>
#include <string.h>

static float normed[100064], moved[100064];

static void normalize(float *x, const float *mean, int filters, int spatial)
{
    int f, i;
    // expect: lifted normalize_lifted (map f32 -> f32 (2 inputs, 1 output), over rows)
    for(f = 0; f < filters; ++f){
        // expect: part of the row lift
        for(i = 0; i < spatial; ++i){
            int index = f*spatial + i;
            x[index] = (x[index] - mean[f]) * 0.5f;
        }
    }
}

static void shadowed(const float *in, float *out, int rows, int cols, int off)
{
    // expect: lifted shadowed_lifted (map f32 -> f32 (1 input, 1 output), over rows)
    for (int r = 0; r < rows; r++)
        // expect: part of the row lift
        for (int c = 0; c < cols; c++) {
            int off = r * cols;  /* shadows the parameter */
            out[r * cols + c] = in[off + c] * 2.0f;
        }
    (void)off;
}

/* NaNs as one canonical NaN: their payloads and signs are not specified by C */
static uint64_t hashf(const float* v, int count, uint64_t h) {
    int k;
    // expect: not lifted:
    for (k = 0; k < count; k++) {
        uint32_t bits;
        memcpy(&bits, &v[k], 4);
        if (v[k] != v[k]) bits = 0x7fc00000u;
        h = h * 1000003u + bits;
    }
    return h;
}

uint64_t body_locals(const float* a, const float* m, int n, int shape) {
    unsigned s = (unsigned)shape;
    int cols = 16 + (int)(s % 61), rows;
    if (n < 0) n = 0;
    if (n > 100000) n = 100000;
    rows = n / cols;
    if (rows > 64) rows = 64;
    memset(normed, 0, sizeof normed);
    memcpy(normed, a, (size_t)(rows * cols) * sizeof(float));
    normalize(normed, m, rows, cols);
    shadowed(a, moved, rows, cols, (int)(s % 7) + 1);
    return hashf(moved, rows * cols, hashf(normed, rows * cols, 0));
}
