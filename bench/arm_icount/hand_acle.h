// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>

void acle_sve_predicated(const float* A, int64_t n, float* B);
void acle_sve_cleanup(const float* A, int64_t n, float* B);
void acle_neon_cleanup(const float* A, int64_t n, float* B);
