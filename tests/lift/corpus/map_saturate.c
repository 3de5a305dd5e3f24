// SPDX-License-Identifier: Apache-2.0
// Saturating image arithmetic as C spells it: the sum or difference in int, clamped to the byte's
// or the short's range, and the rounded mean (a + b + 1) >> 1. The lifted expressions keep the
// widened arithmetic; the generator recognises the clamps and the mean as add_sat, sub_sat and
// avg_round (one instruction per vector: vpaddusb, vpsubusb, vpavgb, vpaddsw, ...). A clamp to
// another bound (250) is only a clamp.
#include <stdint.h>

static uint8_t lighten[100000], darken[100000], mean[100000], capped[100000];
static int16_t mixed[100000];

int saturate(const uint8_t* a, const uint8_t* b, const int16_t* s, const int16_t* t, int n) {
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> u8 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) {
        int v = a[i] + b[i];
        lighten[i] = (uint8_t)(v > 255 ? 255 : v);
    }
    // expect: lifted map u8 -> u8 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) {
        int v = a[i] - b[i];
        darken[i] = (uint8_t)(v < 0 ? 0 : v);
    }
    // expect: lifted map u8 -> u8 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) mean[i] = (uint8_t)((a[i] + b[i] + 1) >> 1);
    // expect: lifted map i16 -> i16 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) {
        int v = s[i] - t[i];
        mixed[i] = (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
    }
    // expect: lifted map u8 -> u8 (2 inputs, 1 output)
    for (int i = 0; i < n; ++i) {
        int v = a[i] + b[i];
        capped[i] = (uint8_t)(v > 250 ? 250 : v);
    }
    int h = 0;
    // expect: not lifted:
    for (int i = 0; i < n; ++i) h = h * 3 + lighten[i] + darken[i] + mean[i] + mixed[i] + capped[i];
    return h;
}
