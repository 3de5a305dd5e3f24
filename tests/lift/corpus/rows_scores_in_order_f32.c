// SPDX-License-Identifier: Apache-2.0
// min-n: 16
// llama2.c's attention scores: each row's dot product in order, then divided by the square root
// of the row's length (`score /= sqrtf(head_size)`) or scaled by a runtime value: a contraction
// with order "sequential" and a div (scale) epilogue, so the results equal the loop's bit for bit.
// A divisor that changes from row to row, or a float divided in double (`/= sqrt(...)`), keeps
// the loop.
#include <math.h>

float scores_in_order(const float* q, const float* keys, int n, float temperature) {
    float att[24], scaled[24], other[24];
    int head_size = n / 24;
    // expect: lifted sum in order of q * keys (f32, a contraction), then score /= sqrtf(head_size)
    for (int t = 0; t < 24; t++) {
        const float* k = keys + t * head_size;
        float score = 0.0f;
        // expect: part of the row lift
        for (int i = 0; i < head_size; i++) {
            score += q[i] * k[i];
        }
        score /= sqrtf(head_size);
        att[t] = score;
    }
    // expect: lifted sum in order of keys * q (f32, a contraction), then acc = acc * temperature
    for (int t = 0; t < 24; t++) {
        float acc = 0.0f;
        // expect: part of the row lift
        for (int i = 0; i < head_size; i++) acc += keys[t * head_size + i] * q[i];
        acc = acc * temperature;
        scaled[t] = acc;
    }
    // expect: not lifted: `acc /= (float)(t + 1)` follows the loop over the row
    for (int t = 0; t < 24; t++) {
        float acc = 0.0f;
        // expect: not lifted: a float sum would be reassociated
        for (int i = 0; i < head_size; i++) acc += keys[t * head_size + i] * q[i];
        acc /= (float)(t + 1);
        other[t] = acc;
    }
    // expect: not lifted: `acc /= sqrt(head_size)` follows the loop over the row
    for (int t = 0; t < 24; t++) {
        float acc = 0.0f;
        // expect: not lifted: a float sum would be reassociated
        for (int i = 0; i < head_size; i++) acc += keys[t * head_size + i] * q[i];
        acc /= sqrt(head_size);
        other[t] += acc;
    }
    float check = 0.0f;
    // expect: not lifted:
    for (int t = 0; t < 24; t++) check = check * 0.5f + att[t] + scaled[t] * 0.25f + other[t] * 0.125f;
    return check;
}
