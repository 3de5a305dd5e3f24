// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance 2
// min-n: 16
// Per-row values inside a row's sum: the variance of each row about its given mean and a weighted
// distance, as statistics code writes them (`float m = mean[r];` before the row's loop). Each such
// local is an input with stride 0 and row stride 1 (one element per row), beside the matrix.
float row_spread(const float* a, const float* mean, const float* w, int n) {
    float var[8], dist[8], total[8];
    int cols = n / 8;
    // expect: lifted reduce add over (a - m) * (a - m) (f32, 2 inputs), over rows
    for (int r = 0; r < 8; r++) {
        float m = mean[r];
        float s = 0.0f;
        // expect: part of the row lift
        for (int c = 0; c < cols; c++) s += (a[r * cols + c] - m) * (a[r * cols + c] - m);
        var[r] = s;
    }
    // expect: lifted reduce add over (scale * w) * a, a (f32, 3 inputs), over rows
    for (int r = 0; r < 8; r++) {
        const float* row = a + r * cols;
        const float scale = w[r + 1];
        float d = 0.0f, t = 0.0f;
        // expect: part of the row lift
        for (int c = 0; c < cols; c++) {
            d += scale * w[c] * row[c];
            t += row[c];
        }
        dist[r] = d;
        total[r] = t;
    }
    float check = 0.0f;
    // expect: not lifted:
    for (int r = 0; r < 8; r++) check = check * 0.5f + var[r] - dist[r] + total[r];
    return check;
}
