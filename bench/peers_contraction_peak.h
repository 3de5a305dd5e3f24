// SPDX-License-Identifier: Apache-2.0
// The machine's FMA peak, measured in the same run as the contractions: loops
// of independent FMA chains (peers_contraction_peak.cpp). The tables give each
// kernel's GFLOP/s as a fraction of the better of the two.
#pragma once

#include <cstdint>

namespace simdgen_bench {
constexpr int64_t kPeakSteps = 1000;  // loop trips per call of a peak kernel
// Independent chains: all 16 zmm accumulators fit in AVX-512's 32 registers;
// AVX2 has 16 registers, so 12 ymm chains (plus the two constants).
constexpr int kZmmChains = 16, kYmmChains = 12;
// Each runs kPeakSteps trips of one FMA per chain (zmm: 16 lanes, ymm: 8) and
// returns a value depending on all of them, so none can be dropped.
// Flops per call: kPeakSteps * chains * lanes * 2.
float fma_peak_zmm(float x);
float fma_peak_ymm(float x);
}  // namespace simdgen_bench
