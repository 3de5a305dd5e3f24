// SPDX-License-Identifier: Apache-2.0
// Lane maps of the named shuffles, each written out by hand from the instruction's definition
// (Intel intrinsics guide, Arm ACLE), not derived from the code under test.
#include <doctest/doctest.h>

#include <vector>

#include "ir/shuffle.h"

using namespace simdgen::ir;
using V = std::vector<int>;

TEST_CASE("x86 shuffles: unpack, shuffle_ps, shuffle_i32x4 / permute2x128, inserted halves") {
  // _mm512_unpacklo_epi32(a, b): the seed-004 first-stage row (b's lanes are 16..31).
  CHECK(shuffles::unpackLo(32).laneMap(16, 32) == V{0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29});
  CHECK(shuffles::unpackHi(32).laneMap(16, 32) == V{2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31});
  // _mm512_unpackhi_epi64 on 32-bit lanes: the high 64-bit unit of each 128-bit segment, a then b.
  CHECK(shuffles::unpackHi(64).laneMap(16, 32) == V{2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31});
  // _mm512_shuffle_i32x4(a, b, 0x88): blocks a0 a2 b0 b2; 0xDD: a1 a3 b1 b3.
  CHECK(shuffles::lanes128(0x88).laneMap(16, 32) == V{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27});
  CHECK(shuffles::lanes128(0xDD).laneMap(16, 32) == V{4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31});
  CHECK(shuffles::lanes128(0x44).laneMap(8, 64) == V{0, 1, 2, 3, 8, 9, 10, 11});
  // _mm256_permute2x128_si256(a, b, 0x20): a0 b0; 0x31: a1 b1.
  CHECK(shuffles::lanes128(0x20).laneMap(8, 32) == V{0, 1, 2, 3, 8, 9, 10, 11});
  CHECK(shuffles::lanes128(0x31).laneMap(8, 32) == V{4, 5, 6, 7, 12, 13, 14, 15});
  // _mm_shuffle_ps(a, b, 0x44): a0 a1 b0 b1; 0xDD on 256 bits: a1 a3 b1 b3 per 128-bit segment.
  CHECK(shuffles::shufflePs(0x44).laneMap(4, 32) == V{0, 1, 4, 5});
  CHECK(shuffles::shufflePs(0xDD).laneMap(8, 32) == V{1, 3, 9, 11, 5, 7, 13, 15});
  CHECK(shuffles::concatHalves(true).laneMap(8, 32) == V{4, 5, 6, 7, 12, 13, 14, 15});
  CHECK(shuffles::concatHalves(false).laneMap(4, 64) == V{0, 1, 4, 5});
}

TEST_CASE("Arm shuffles: zip, uzp, trn at any lane count and unit width") {
  CHECK(shuffles::zip1(32).laneMap(4, 32) == V{0, 4, 1, 5});
  CHECK(shuffles::zip2(32).laneMap(4, 32) == V{2, 6, 3, 7});
  CHECK(shuffles::uzp1(32).laneMap(4, 32) == V{0, 2, 4, 6});
  CHECK(shuffles::uzp2(32).laneMap(4, 32) == V{1, 3, 5, 7});
  CHECK(shuffles::trn1(32).laneMap(4, 32) == V{0, 4, 2, 6});
  CHECK(shuffles::trn2(32).laneMap(4, 32) == V{1, 5, 3, 7});
  // 64-bit units over 32-bit lanes (svzip1 on svuint64 views): pairs move together.
  CHECK(shuffles::zip1(64).laneMap(8, 32) == V{0, 1, 8, 9, 2, 3, 10, 11});
  // Scalable: the same shuffle at 2048 bits (64 lanes) keeps the pattern.
  const V z = shuffles::zip2(32).laneMap(64, 32);
  CHECK(z.size() == 64);
  CHECK(z[0] == 32);
  CHECK(z[1] == 96);
  CHECK(z[63] == 127);
}

TEST_CASE("shuffles refuse shapes their instruction does not have") {
  CHECK_THROWS_WITH(shuffles::lanes128(0x88).laneMap(4, 32), doctest::Contains("needs a 256- or 512-bit vector"));
  CHECK_THROWS_WITH(shuffles::unpackLo(16).laneMap(8, 32), doctest::Contains("narrower than the 32-bit elements"));
  CHECK_THROWS_WITH(shuffles::explicitMap({0, 9}).laneMap(2, 32), doctest::Contains("entry 9 is outside the 4 source lanes"));
  CHECK_THROWS_WITH(shuffles::explicitMap({0, 1, 2}).laneMap(2, 32), doctest::Contains("has 3 entries for 2 lanes"));
}
