// SPDX-License-Identifier: Apache-2.0
// Prints the variants the dispatchers of generated/rowsum_i8 (sve, neon_dotprod, neon) and
// generated/rowsum_i8_to_i16 (sve2, sve, neon) choose on this CPU, after one call each (the choice
// is made at the first call): CTest compares them with the CPU qemu emulates.
#include <cstdio>

#include "rowsum_i8.h"
#include "rowsum_i8_to_i16.h"

int main() {
  const int8_t row[3] = {1, 2, 3};
  int32_t sum32 = 0;
  int16_t sum16 = 0;
  rowsum_i8(row, 1, 3, 3, &sum32);
  rowsum_i8_to_i16(row, 1, 3, 3, &sum16);
  std::printf("%s %s %d\n", rowsum_i8_variant(), rowsum_i8_to_i16_variant(), sum32 + sum16);
  return sum32 == 6 && sum16 == 6 ? 0 : 1;
}
