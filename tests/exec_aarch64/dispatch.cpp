// SPDX-License-Identifier: Apache-2.0
// Prints the variant the dispatcher of generated/rowsum_i8 chooses on this CPU, after one call
// (the choice is made at the first call): CTest compares it with the CPU qemu emulates.
#include <cstdio>

#include "rowsum_i8.h"

int main() {
  const int8_t row[3] = {1, 2, 3};
  int32_t sum = 0;
  rowsum_i8(row, 1, 3, 3, &sum);
  std::printf("%s %d\n", rowsum_i8_variant(), sum);
  return sum == 6 ? 0 : 1;
}
