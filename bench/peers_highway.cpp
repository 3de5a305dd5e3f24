// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3 peers, built for several targets with Highway's own dynamic
// dispatch (foreach_target.h), so this file needs no -march flag: 1.0.3
// rejects -march=native on Zen 4, and runtime dispatch is how Highway is
// meant to be shipped anyway. HWY_WANT_AVX3_DL (set in CMakeLists.txt) adds
// the AVX3_DL (Ice Lake / Zen 4) target, which 1.0.3 leaves out by default.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "peers_highway.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <limits>

#include "peers_highway.h"

HWY_BEFORE_NAMESPACE();
namespace simdgen_bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// i8 sum via SAD: x ^ 0x80 maps int8 to uint8 with a +128 bias, SumsOf8
// (vpsadbw against zero) adds 8 bytes into each u64 lane without overflow,
// and the bias is removed once per row: one load + xor + sad + add per
// vector. 1.0.3 has no SatWidenMulPairwiseAdd/ReduceSum to do better.
void RowSumI8Sad(const int8_t* input, int64_t rows, int64_t cols,
                 int64_t stride, int32_t* out) {
  const hn::ScalableTag<uint8_t> d8;
  const hn::Repartition<uint64_t, decltype(d8)> d64;
  const size_t N = hn::Lanes(d8);
  const size_t n = static_cast<size_t>(cols);
  const auto bias = hn::Set(d8, 0x80);
  for (int64_t r = 0; r < rows; ++r) {
    const uint8_t* row = reinterpret_cast<const uint8_t*>(input + r * stride);
    auto a0 = hn::Zero(d64), a1 = hn::Zero(d64);
    auto a2 = hn::Zero(d64), a3 = hn::Zero(d64);
    size_t j = 0;
    for (; j + 4 * N <= n; j += 4 * N) {
      a0 = hn::Add(a0, hn::SumsOf8(hn::Xor(hn::LoadU(d8, row + j), bias)));
      a1 = hn::Add(a1, hn::SumsOf8(hn::Xor(hn::LoadU(d8, row + j + N), bias)));
      a2 = hn::Add(a2, hn::SumsOf8(hn::Xor(hn::LoadU(d8, row + j + 2 * N), bias)));
      a3 = hn::Add(a3, hn::SumsOf8(hn::Xor(hn::LoadU(d8, row + j + 3 * N), bias)));
    }
    for (; j + N <= n; j += N)
      a0 = hn::Add(a0, hn::SumsOf8(hn::Xor(hn::LoadU(d8, row + j), bias)));
    int64_t biased_lanes = static_cast<int64_t>(j);
    int64_t scalar_tail = 0;
    if (j < n) {
      // Tail: reload the last full vector ending at the row end and zero the
      // lanes already counted; zero lanes become 128 after the xor, so the
      // whole vector counts towards the bias. No read outside the row.
      const size_t rem = n - j;
      if (n >= N) {
        const auto v = hn::LoadU(d8, row + n - N);
        const auto fresh = hn::Not(hn::FirstN(d8, N - rem));
        a1 = hn::Add(a1, hn::SumsOf8(hn::Xor(hn::IfThenElseZero(fresh, v), bias)));
        biased_lanes += static_cast<int64_t>(N);
      } else {
        for (; j < n; ++j) scalar_tail += static_cast<int8_t>(row[j]);
      }
    }
    const auto sum = hn::Add(hn::Add(a0, a1), hn::Add(a2, a3));
    const uint64_t total = hn::GetLane(hn::SumOfLanes(d64, sum));
    out[r] = static_cast<int32_t>(static_cast<int64_t>(total) -
                                  128 * biased_lanes + scalar_tail);
  }
}

// i8 sum via madd: load half a vector of bytes, sign-extend to i16
// (PromoteTo) and let ReorderWidenMulAccumulate (vpmaddwd by 1) add pairs
// into i32 lanes. Twice the instructions per byte of the SAD version.
void RowSumI8Madd(const int8_t* input, int64_t rows, int64_t cols,
                  int64_t stride, int32_t* out) {
  const hn::ScalableTag<int16_t> d16;
  const hn::Rebind<int8_t, decltype(d16)> d8h;  // half vector of bytes
  const hn::Repartition<int32_t, decltype(d16)> d32;
  const size_t N = hn::Lanes(d16);  // bytes consumed per promote
  const size_t n = static_cast<size_t>(cols);
  const auto ones = hn::Set(d16, 1);
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* row = input + r * stride;
    auto a0 = hn::Zero(d32), a1 = hn::Zero(d32);
    auto a2 = hn::Zero(d32), a3 = hn::Zero(d32), unused = hn::Zero(d32);
    size_t j = 0;
    for (; j + 4 * N <= n; j += 4 * N) {
      a0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8h, row + j)), ones, a0, unused);
      a1 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8h, row + j + N)), ones, a1, unused);
      a2 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8h, row + j + 2 * N)), ones, a2, unused);
      a3 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8h, row + j + 3 * N)), ones, a3, unused);
    }
    for (; j + N <= n; j += N)
      a0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8h, row + j)), ones, a0, unused);
    int32_t tail = 0;
    for (; j < n; ++j) tail += row[j];  // < N (<= 31) bytes: scalar is fine
    const auto sum = hn::Add(hn::Add(a0, a1), hn::Add(a2, a3));
    out[r] = hn::GetLane(hn::SumOfLanes(d32, sum)) + tail;
  }
}

// f32 sum/max: four independent accumulators hide the add latency; the tail
// reloads the last full vector and puts the identity in lanes already seen.
template <bool kMax>
HWY_INLINE void RowReduceF32(const float* input, int64_t rows, int64_t cols,
                             int64_t stride, float* out) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const size_t n = static_cast<size_t>(cols);
  const float identity = kMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  const auto id = hn::Set(d, identity);
  const auto combine = [](auto a, auto b) {
    if constexpr (kMax) return hn::Max(a, b);
    else return hn::Add(a, b);
  };
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = input + r * stride;
    auto a0 = id, a1 = id, a2 = id, a3 = id;
    size_t j = 0;
    for (; j + 4 * N <= n; j += 4 * N) {
      a0 = combine(a0, hn::LoadU(d, row + j));
      a1 = combine(a1, hn::LoadU(d, row + j + N));
      a2 = combine(a2, hn::LoadU(d, row + j + 2 * N));
      a3 = combine(a3, hn::LoadU(d, row + j + 3 * N));
    }
    for (; j + N <= n; j += N) a0 = combine(a0, hn::LoadU(d, row + j));
    float tail = identity;
    if (j < n && n >= N) {
      const auto fresh = hn::Not(hn::FirstN(d, N - (n - j)));
      a1 = combine(a1, hn::IfThenElse(fresh, hn::LoadU(d, row + n - N), id));
    } else {
      for (; j < n; ++j)
        tail = kMax ? (row[j] > tail ? row[j] : tail) : tail + row[j];
    }
    const auto v = combine(combine(a0, a1), combine(a2, a3));
    if constexpr (kMax) {
      const float m = hn::GetLane(hn::MaxOfLanes(d, v));
      out[r] = tail > m ? tail : m;
    } else {
      out[r] = hn::GetLane(hn::SumOfLanes(d, v)) + tail;
    }
  }
}

void RowSumF32(const float* input, int64_t rows, int64_t cols, int64_t stride,
               float* out) {
  RowReduceF32<false>(input, rows, cols, stride, out);
}

void RowMaxF32(const float* input, int64_t rows, int64_t cols, int64_t stride,
               float* out) {
  RowReduceF32<true>(input, rows, cols, stride, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace simdgen_bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdgen_bench {
HWY_EXPORT(RowSumI8Sad);
HWY_EXPORT(RowSumI8Madd);
HWY_EXPORT(RowSumF32);
HWY_EXPORT(RowMaxF32);

// Best target for this CPU, chosen by Highway at the first call.
void hwy_rowsum_i8_sad(const int8_t* in, int64_t rows, int64_t cols,
                       int64_t stride, int32_t* out) {
  HWY_DYNAMIC_DISPATCH(RowSumI8Sad)(in, rows, cols, stride, out);
}
void hwy_rowsum_i8_madd(const int8_t* in, int64_t rows, int64_t cols,
                        int64_t stride, int32_t* out) {
  HWY_DYNAMIC_DISPATCH(RowSumI8Madd)(in, rows, cols, stride, out);
}
void hwy_rowsum_f32(const float* in, int64_t rows, int64_t cols,
                    int64_t stride, float* out) {
  HWY_DYNAMIC_DISPATCH(RowSumF32)(in, rows, cols, stride, out);
}
void hwy_rowmax_f32(const float* in, int64_t rows, int64_t cols,
                    int64_t stride, float* out) {
  HWY_DYNAMIC_DISPATCH(RowMaxF32)(in, rows, cols, stride, out);
}

// The AVX2 build of the same code, to compare with the generated _avx2
// variants. Only called when the CPU supports it (see bench_peers.cpp).
HighwayAvx2 hwy_avx2_kernels() {
#if HWY_TARGETS & HWY_AVX2
  return {N_AVX2::RowSumI8Sad, N_AVX2::RowSumI8Madd, N_AVX2::RowSumF32,
          N_AVX2::RowMaxF32};
#else
  return {};
#endif
}

std::string highway_best_target_name() {
  const int64_t usable = hwy::SupportedTargets() & HWY_TARGETS;
  return hwy::TargetName(usable & -usable);  // lowest bit = best target
}

bool highway_has_avx2() { return (hwy::SupportedTargets() & HWY_AVX2) != 0; }
}  // namespace simdgen_bench
#endif  // HWY_ONCE
