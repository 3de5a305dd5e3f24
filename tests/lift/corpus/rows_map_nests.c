// SPDX-License-Identifier: Apache-2.0
// Element-wise nests over matrix rows, as image and ML code writes them: a blend of a matrix's
// rows (through a row pointer) with a row every row reads, darknet's add_bias
// (`output[(b*n + i)*size + j] += biases[i]`, one call per batch), a per-row scale of a 2-D array
// through a row local, bytes to floats between matrices with their own strides. Each becomes one
// rank-2 map call; a call whose output overlaps its input (a shift along the rows through two
// row pointers) runs the nest.
// A nest whose every row writes the same row, or stores under a condition it tests once, stays a
// nest (its inner loop may lift on its own).
#include <stdint.h>
#include <string.h>

static float outm[100064], bias_out[100064];
static float grid[64][80];
static float shifted[100064];
static float conv[100064];

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

static void add_bias(float *output, const float *biases, int batch, int n, int size)
{
    int i,j,b;
    // expect: not lifted: the loop writes to memory
    for(b = 0; b < batch; ++b){
        // expect: lifted add_bias_lifted (map f32 -> f32 (2 inputs, 1 output), over rows)
        for(i = 0; i < n; ++i){
            // expect: part of the row lift
            for(j = 0; j < size; ++j){
                output[(b*n + i)*size + j] += biases[i];
            }
        }
    }
}

uint64_t nests(const float* a, const float* x, const uint8_t* u, int n, int shape, float alpha) {
    int rows, cols, lda, ldo, r, c = 0, gr;
    unsigned s = (unsigned)shape;
    if (n < 0) n = 0;
    if (n > 100000) n = 100000;
    gr = n < 64 ? n : 64;
    cols = 16 + (int)(s % 61);
    lda = cols + (int)(s / 61 % 3);
    ldo = cols + (int)(s / 183 % 2);
    rows = n / lda;
    memset(outm, 0, sizeof outm);
    memset(shifted, 0, sizeof shifted);
    memset(conv, 0, sizeof conv);
    memset(grid, 0, sizeof grid);
    if (rows * ldo > 100000) rows = 100000 / ldo;
    // expect: lifted nests_lifted (map f32 -> f32 (2 inputs, 1 output), over rows)
    for (r = 0; r < rows; r++) {
        const float* row = a + r * lda;
        // expect: part of the row lift
        for (c = 0; c < cols; c++) outm[r * ldo + c] = alpha * row[c] + x[c];
    }
    memcpy(bias_out, a, sizeof(float) * (size_t)n);
    if (n >= 64) add_bias(bias_out, x, 2, n / 64 / 2, 64);
    // expect: not lifted:
    for (r = 0; r < gr; r++)
        // expect: not lifted:
        for (c = 0; c < 80; c++) grid[r][c] = a[(r * 80 + c) % n];
    // expect: lifted nests_lifted_2 (map f32 -> f32 (2 inputs, 1 output), over rows)
    for (r = 0; r < gr; r++) {
        float sc = x[r];
        // expect: part of the row lift
        for (c = 0; c < 80; c++) grid[r][c] *= sc;
    }
    // expect: lifted nests_lifted_3 (map u8 -> f32 (1 input, 1 output), over rows)
    for (r = 0; r < rows; r++)
        // expect: part of the row lift
        for (c = 0; c < cols; c++) conv[r * ldo + c] = u[r * lda + c] * (1.0f / 255.0f);
    memcpy(shifted, a, sizeof(float) * (size_t)n);
    // expect: lifted nests_lifted_4 (map f32 -> f32 (1 input, 1 output), over rows)
    for (r = 0; r + 1 < rows; r++)
        // expect: part of the row lift
        for (c = 0; c < cols; c++) shifted[r * lda + c] = shifted[(r + 1) * lda + c] * 0.5f;
    // rows through pointers that overlap within a row (a shift: the loop carries values along it)
    // expect: lifted nests_lifted_5 (map f32 -> f32 (1 input, 1 output), over rows)
    for (r = 0; r < rows; r++) {
        float* dst = shifted + r * lda + 1;
        const float* src = shifted + r * lda;
        // expect: part of the row lift
        for (c = 0; c + 1 < cols; c++) dst[c] = src[c] * 0.5f + 1.0f;
    }
    // expect: not lifted: as an element-wise nest
    for (r = 0; r < rows; r++)
        // expect: lifted nests_lifted_6 (map f32 -> f32 (1 input, 1 output))
        for (c = 0; c < cols; c++) conv[c] = a[r * lda + c];
    // expect: not lifted: as an element-wise nest
    for (r = 0; r < rows; r++)
        // expect: lifted nests_lifted_7 (map f32 -> f32 (1 input, 1 output))
        for (c = 0; c < cols; c++)
            if (shape & 1) outm[r * ldo + c] = a[r * lda + c] + 1.0f;
    return hashf(outm, 100064, hashf(bias_out, 100064, hashf(&grid[0][0], 64 * 80, hashf(shifted, 100064, hashf(conv, 100064, 0))))) +
           (uint64_t)r * 3 + (uint64_t)c * 5;
}
