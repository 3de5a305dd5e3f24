// SPDX-License-Identifier: Apache-2.0
// min-n: 1
// Peak-to-peak of audio samples: both extremes start from the first sample.
#include <stdint.h>

int32_t peak_to_peak_i16(const int16_t* s, int n) {
    int16_t lo = s[0];
    // expect: lifted reduce min i16
    for (int i = 1; i < n; ++i) {
        if (s[i] < lo)
            lo = s[i];
    }
    int16_t hi = s[0];
    // expect: lifted reduce max i16
    for (int i = 1; i < n; ++i) {
        if (s[i] > hi)
            hi = s[i];
    }
    return (int32_t)hi - (int32_t)lo;
}
