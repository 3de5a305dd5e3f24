// SPDX-License-Identifier: Apache-2.0
// Column sums of a 16-column float matrix: down columns the kernel keeps one lane per column and
// adds the rows in order, so the spec says `order: sequential` and the sums are bit-exact (no
// --reassociate needed).
float col_sums_check(const float* a, int n) {
    float sums[16];
    const int cols = 16;
    const int rows = n / cols;
    // expect: lifted col_sums_check_lifted (reduce add f32 -> f32, over columns)
    for (int c = 0; c < cols; ++c) {
        float s = 0.0f;
        // expect: part of the row lift
        for (int r = 0; r < rows; ++r) s += a[r * cols + c];
        sums[c] = s;
    }
    float check = 0.0f;
    // expect: not lifted:
    for (int c = 0; c < cols; ++c) check = check * 0.5f + sums[c];
    return check;
}
