// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance 3
// min-n: 16
// A matrix-vector product as llama2.c's matmul writes it (`val += w[i * n + j] * x[j]`, the
// counter of the rows declared at the top, read after the nest), and a scaled variant whose rows
// are `ld` apart (ld > cols): one rank-2 map call each, x read by every row (row_stride 0);
// and a product whose results land in its own vector (run as written).
float matvec_check(const float* w, const float* x, int n, float alpha) {
    float xout[16] = {0};
    int i;
    int d = 8, cols = n / 8;
    // expect: lifted reduce add over w * x (f32, 2 inputs), over rows
    for (i = 0; i < d; i++) {
        float val = 0.0f;
        // expect: part of the row lift
        for (int j = 0; j < cols; j++) {
            val += w[i * cols + j] * x[j];
        }
        xout[i] = val;
    }
    float check = (float)i;
    int ld = cols + 3, rows = cols > 0 ? (n - cols) / ld : 0;
    if (rows > 8) rows = 8;
    // expect: lifted reduce add over (alpha * w) * x (f32, 2 inputs), over rows
    for (int r = 0; r < rows; ++r) {
        float acc = 0.0f;
        // expect: part of the row lift
        for (int c = 0; c < cols; ++c) acc += alpha * w[r * ld + c + 1] * x[c];
        xout[8 + r] = acc;
    }
    // The results overwrite the vector the later rows read: the rewrite's address check runs the loop
    // (the kernels of today would agree, as they finish a row before they store its result).
    float buf[16];
    int rows2 = n / 16;
    if (rows2 > 8) rows2 = 8;
    // expect: not lifted:
    for (int k = 0; k < 16; ++k) buf[k] = x[k];
    // expect: lifted reduce add over w * buf (f32, 2 inputs), over rows
    for (int r = 0; r < rows2; ++r) {
        float v = 0.0f;
        // expect: part of the row lift
        for (int c = 0; c < 16; ++c) v += w[r * 16 + c] * buf[c];
        buf[8 + r] = v;
    }
    // expect: not lifted:
    for (int k = 0; k < 16; ++k) check = check * 0.5f + xout[k] + buf[k] * 0.25f;
    return check;
}
