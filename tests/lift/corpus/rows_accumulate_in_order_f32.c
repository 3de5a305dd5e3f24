// SPDX-License-Identifier: Apache-2.0
// min-n: 16
// Weighted rows added into one vector, as llama2.c's attention writes its output
// (`xb[i] += a * v[i]` for every position t, a = att[t], v a row pointer): a contraction with
// "init": "output" and order "sequential", whose lanes are the columns and whose sum over the rows
// adds each rounded product to out[c] in the loop's order, so the results equal the loop's.
// A term that is not one product of a weight and a row element keeps the nest a loop, and so does
// a "weight" that moves along the row (`att[t + i]`: before 2026-12-07 the column counter was
// taken for a fixed value there, a false lift).
float accumulate_in_order(const float* att, const float* values, int n, float bias) {
    float xb[64], yb[64];
    int rows = n / 4 < 24 ? n / 4 : 24;
    int head = rows > 0 ? n / rows : 0;
    if (head > 64) head = 64;
    // expect: not lifted:
    for (int i = 0; i < 64; i++) xb[i] = bias;
    // expect: not lifted:
    for (int i = 0; i < 64; i++) yb[i] = -bias;
    // expect: lifted accumulate in order xb[c] += att * values (f32, a contraction), over rows
    for (int t = 0; t < rows; t++) {
        const float* v = values + t * head;
        float a = att[t];
        // expect: part of the row lift
        for (int i = 0; i < head; i++) {
            xb[i] += a * v[i];
        }
    }
    // expect: lifted accumulate in order yb[c] += values * att (f32, a contraction), over rows
    for (int t = 0; t < rows; t++) {
        // expect: part of the row lift
        for (int i = 0; i < head; i++) yb[i] = yb[i] + values[t * head + i] * att[t];
    }
    // expect: not lifted: the same element in every row
    for (int t = 0; t < rows; t++) {
        // expect: lifted
        for (int i = 0; i < head; i++) xb[i] += att[t] * values[t * head + i] * 0.5f;
    }
    // expect: not lifted: is not element [r][c]
    for (int t = 0; t < rows; t++) {
        // expect: lifted
        for (int i = 0; i < head; i++) yb[i] += att[t + i] * values[t * head + i];
    }
    float check = 0.0f;
    // expect: not lifted:
    for (int i = 0; i < 64; i++) check = check * 0.5f + xb[i] + yb[i] * 0.25f;
    return check;
}
