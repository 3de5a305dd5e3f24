// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stddef.h>
#include <stdint.h>

uint32_t pixel_sum(const uint8_t* pixels, size_t count);
long hottest(const float* temps, long n, float* value);
int16_t lowest(const int16_t* samples, int n, int16_t ceiling);
int64_t checksum(const int64_t* words, int n);
uint64_t byte_total(const uint8_t* bytes, size_t n);
void row_totals(const uint8_t* img, int rows, int cols, int stride, uint32_t* out);
void row_max_shifted(int32_t* m, int rows, int cols);
void brighten(const uint8_t* in, uint8_t* out, int n);
int running_peaks(const int* a, int n, int* peaks);
