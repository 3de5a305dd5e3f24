// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance 2
// min-n: 16
// Row-wise sums of expressions that must stay loops (as one call for all rows): a per-row value
// computed from an element (only a plain element, `float m = mean[r];`, is an input), an
// accumulator that starts from the bias, a result converted on its store, and a sum that starts
// from -0.0 (the kernel's rows start from +0: a row of -0.0 terms would give +0.0).
float rows_refused(const float* a, const float* mean, const float* b, int n) {
    float out[16];
    int cols = n / 8;
    double wide[8];
    // expect: not lifted: as a row-wise reduction: `m` changes from row to row and is not an element of an array read as it is
    for (int r = 0; r < 8; r++) {
        float m = mean[r] * 0.5f;
        float s = 0.0f;
        // expect: lifted reduce add over (in0 - m) * (in0 - m)
        for (int c = 0; c < cols; c++) s += (a[r * cols + c] - m) * (a[r * cols + c] - m);
        out[r] = s;
    }
    // expect: not lifted: as a row-wise reduction: `s` does not start from +0
    for (int r = 0; r < 8; r++) {
        float s = b[r];
        // expect: lifted reduce add over in0 * b
        for (int c = 0; c < cols; c++) s += a[r * cols + c] * b[c];
        out[8 + r] = s;
    }
    // expect: not lifted: as a row-wise reduction: `wide[r] = s` converts the result
    for (int r = 0; r < 8; r++) {
        float s = 0.0f;
        // expect: lifted reduce add over in0 * b
        for (int c = 0; c < cols; c++) s += a[r * cols + c] * b[c];
        wide[r] = s;
    }
    // expect: not lifted: as a row-wise reduction: `s` does not start from +0
    for (int r = 0; r < 8; r++) {
        float s = -0.0f;
        // expect: lifted reduce add over in0 * b
        for (int c = 0; c < cols; c++) s += a[r * cols + c] * b[c];
        out[r] = s;
    }
    float check = 0.0f;
    // expect: not lifted:
    for (int r = 0; r < 16; r++) check = check * 0.5f + out[r] + (r < 8 ? (float)wide[r] : 0.0f);
    return check;
}
