// SPDX-License-Identifier: Apache-2.0
// min-n: 16
// Matrix-vector products as llama2.c's matmul writes them (`val += w[i * n + j] * x[j]`), lifted
// without --reassociate: each row keeps its sum in the loop's order (a contraction with order
// "sequential": one vector lane per row, every product rounded and added in column order, no
// FMA), so the results equal the loop's bit for bit: this file has no tolerance. A row sum of
// any other term (a scaled product, a subtraction) is still refused without --reassociate.
float matvec_in_order(const float* w, const float* x, int n, float alpha) {
    float xout[8] = {0};
    int i;
    int d = 8, cols = n / 8;
    // expect: lifted sum in order of w * x (f32, a contraction), over rows
    for (i = 0; i < d; i++) {
        float val = 0.0f;
        // expect: part of the row lift
        for (int j = 0; j < cols; j++) {
            val += w[i * cols + j] * x[j];
        }
        xout[i] = val;
    }
    float check = (float)i;
    // The vector first and up to 20 rows ld = cols + 1 apart, starting one element in.
    cols = n / 20;
    int ld = cols + 1, rows = cols > 0 ? (n - 1) / ld : 0;
    if (rows > 20) rows = 20;
    float ys[20];
    // expect: lifted sum in order of x * w (f32, a contraction), over rows
    for (int r = 0; r < rows; ++r) {
        float acc = 0.0f;
        // expect: part of the row lift
        for (int c = 0; c < cols; ++c) acc += x[c] * w[r * ld + c + 1];
        ys[r] = acc;
    }
    float zs[20];
    // expect: not lifted: this term is not a product of two elements
    for (int r = 0; r < rows; ++r) {
        float acc = 0.0f;
        // expect: not lifted: a float sum would be reassociated
        for (int c = 0; c < cols; ++c) acc += alpha * w[r * ld + c] * x[c];
        zs[r] = acc;
    }
    // expect: not lifted: this term is -(w * x)
    for (int r = 0; r < rows; ++r) {
        float acc = 0.0f;
        // expect: not lifted: a float sum would be reassociated
        for (int c = 0; c < cols; ++c) acc -= w[r * ld + c] * x[c];
        ys[r] = acc;
    }
    // expect: not lifted:
    for (int k = 0; k < 8; ++k) check = check * 0.5f + xout[k];
    // expect: not lifted:
    for (int k = 0; k < rows; ++k) check = check * 0.5f + ys[k] + zs[k] * 0.25f;
    return check;
}
