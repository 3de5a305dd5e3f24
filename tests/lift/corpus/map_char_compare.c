// SPDX-License-Identifier: Apache-2.0
// Plain `char` elements compared for equality with ASCII constants (darknet's `board[i] == '1'`,
// counting spaces): true for the same bytes whether the target's char is signed (x86) or not (Arm),
// so they lift as u8. A comparison that depends on char's signedness (`b[i] < 0`, a value that
// may be above 127) stays a loop.
#include <stdint.h>

static float cells[100000];
static int32_t negative[100000], high[100000];

uint64_t char_compare(const char* b, int n, int mark) {
    uint64_t h = 0;
    int spaces = 0;
    int i;
    if (n > 100000) n = 100000;
    // expect: lifted map u8 -> f32 (1 input, 1 output)
    for (i = 0; i < n; i++) cells[i] = b[i] == '1' ? 1.0f : b[i] == '2' ? -1.0f : 0.0f;
    // expect: lifted reduce add over
    for (i = 0; i < n; i++) spaces += b[i] != ' ';
    // expect: not lifted: char
    for (i = 0; i < n; i++) negative[i] = b[i] < 0;
    // expect: not lifted: char
    for (i = 0; i < n; i++) high[i] = b[i] == mark;
    // expect: not lifted:
    for (i = 0; i < n; i++) h = h * 1000003u + (uint64_t)(cells[i] + 2.0f) + (uint32_t)negative[i] + (uint32_t)high[i];
    return h + (uint32_t)spaces;
}
