// SPDX-License-Identifier: Apache-2.0
// lift-args: --reassociate
// diff: tolerance 2
// min-n: 16
// Vector search: the squared L2 distance and the dot product of a query against every row of
// a matrix (rows `dim` apart, read through a row pointer), as embedding code writes it.
float nearest_check(const float* base, const float* q, int n) {
    const int dim = 24;
    float dist[16], dots[16];
    int rows = n / dim;
    if (rows > 16) rows = 16;
    // expect: lifted reduce add over (base - q) * (base - q), q * base (f32, 2 inputs), over rows
    for (int r = 0; r < rows; r++) {
        const float* row = base + r * dim;
        float d = 0.0f, dot = 0.0f;
        // expect: part of the row lift
        for (int k = 0; k < dim; k++) {
            float t = row[k] - q[k];
            d += t * t;
            dot += q[k] * row[k];
        }
        dist[r] = d;
        dots[r] = dot;
    }
    float check = 0.0f;
    // expect: not lifted:
    for (int r = 0; r < rows; r++) check = check * 0.25f + dist[r] - dots[r];
    return check;
}
