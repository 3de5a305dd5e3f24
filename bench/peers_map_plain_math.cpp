// SPDX-License-Identifier: Apache-2.0
// specs/map_norm_floor_f32.json as the loop a user writes (see peers_map_plain_math.h).
#include "peers_map_plain_math.h"

#include "peer_suffix.h"  // PEER(name): name_<build>

namespace simdgen_bench {

void PEER(plain_norm_floor_f32)(const float* __restrict x, const float* __restrict y, int64_t n,
                                float* __restrict norm, float* __restrict cell) {
  for (int64_t i = 0; i < n; ++i) {
    norm[i] = __builtin_sqrtf(x[i] * x[i] + y[i] * y[i]);
    cell[i] = __builtin_floorf(x[i] * 0.25f);
  }
}

}  // namespace simdgen_bench
