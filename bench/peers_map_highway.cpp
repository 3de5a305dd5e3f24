// SPDX-License-Identifier: Apache-2.0
// Highway 1.0.3 map peers, written the way Highway's own Transform
// (hwy/contrib/algo/transform-inl.h) writes a map: whole vectors with
// LoadU/StoreU, then one partial vector with FirstN + MaskedLoad +
// BlendedStore (1.0.3 has no LoadN/StoreN). Transform itself is in-place
// (inout), these kernels write a separate output, so the loop is spelled out.
// Dynamic dispatch as in peers_highway.cpp (HWY_WANT_AVX3_DL from
// CMakeLists.txt adds the Zen 4 target).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "peers_map_highway.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "peers_map_highway.h"

HWY_BEFORE_NAMESPACE();
namespace simdgen_bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void TimesTwo(const float* HWY_RESTRICT a, int64_t n64, float* HWY_RESTRICT b) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const size_t n = static_cast<size_t>(n64);
  const auto two = hn::Set(d, 2.0f);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, a + i), two), d, b + i);
  }
  if (i == n) return;
  const auto m = hn::FirstN(d, n - i);
  hn::BlendedStore(hn::Mul(hn::MaskedLoad(m, d, a + i), two), m, d, b + i);
}

void AxpbyFma(const float* HWY_RESTRICT x, const float* HWY_RESTRICT y, int64_t n64,
              float alpha, float beta, float* HWY_RESTRICT out) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const size_t n = static_cast<size_t>(n64);
  const auto va = hn::Set(d, alpha), vb = hn::Set(d, beta);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N)
      hn::StoreU(hn::MulAdd(va, hn::LoadU(d, x + i), hn::Mul(vb, hn::LoadU(d, y + i))), d,
                 out + i);
  }
  if (i == n) return;
  const auto m = hn::FirstN(d, n - i);
  const auto vx = hn::MaskedLoad(m, d, x + i), vy = hn::MaskedLoad(m, d, y + i);
  hn::BlendedStore(hn::MulAdd(va, vx, hn::Mul(vb, vy)), m, d, out + i);
}

// select(a > b, a - b, b - a), wrapping.
template <class D, class V>
HWY_INLINE V AbsDiff16(D /*d*/, V va, V vb) {
  return hn::IfThenElse(hn::Gt(va, vb), hn::Sub(va, vb), hn::Sub(vb, va));
}

void AbsDiffI16(const int16_t* HWY_RESTRICT a, const int16_t* HWY_RESTRICT b, int64_t n64,
                int16_t* HWY_RESTRICT out) {
  const hn::ScalableTag<int16_t> d;
  const size_t N = hn::Lanes(d);
  const size_t n = static_cast<size_t>(n64);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N)
      hn::StoreU(AbsDiff16(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
  }
  if (i == n) return;
  const auto m = hn::FirstN(d, n - i);
  hn::BlendedStore(AbsDiff16(d, hn::MaskedLoad(m, d, a + i), hn::MaskedLoad(m, d, b + i)), m,
                   d, out + i);
}

// Bytes to floats: u8 lanes of a quarter-width vector promoted to i32 (Highway's
// PromoteTo), converted, then one MulAdd.
void U8ToF32Fma(const uint8_t* HWY_RESTRICT px, int64_t n64, float scale, float bias,
                float* HWY_RESTRICT y) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<int32_t, decltype(df)> di;
  const hn::Rebind<uint8_t, decltype(df)> d8;
  const size_t N = hn::Lanes(df);
  const size_t n = static_cast<size_t>(n64);
  const auto vs = hn::Set(df, scale), vb = hn::Set(df, bias);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N)
      hn::StoreU(hn::MulAdd(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, px + i))), vs, vb),
                 df, y + i);
  }
  if (i == n) return;
  const auto m8 = hn::FirstN(d8, n - i);
  const auto v = hn::ConvertTo(df, hn::PromoteTo(di, hn::MaskedLoad(m8, d8, px + i)));
  hn::BlendedStore(hn::MulAdd(v, vs, vb), hn::FirstN(df, n - i), df, y + i);
}

// Floats to bytes: NearestInt (ties to even) to i32, then DemoteTo u8, which
// saturates to 0..255. (NaN differs from the spec's 0; the inputs have none.)
void F32ToU8Nearest(const float* HWY_RESTRICT x, int64_t n64, float scale,
                    uint8_t* HWY_RESTRICT q) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<uint8_t, decltype(df)> d8;
  const size_t N = hn::Lanes(df);
  const size_t n = static_cast<size_t>(n64);
  const auto vs = hn::Set(df, scale);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N)
      hn::StoreU(hn::DemoteTo(d8, hn::NearestInt(hn::Mul(hn::LoadU(df, x + i), vs))), d8, q + i);
  }
  if (i == n) return;
  const auto m = hn::FirstN(df, n - i);
  const auto r = hn::DemoteTo(d8, hn::NearestInt(hn::Mul(hn::MaskedLoad(m, df, x + i), vs)));
  hn::BlendedStore(r, hn::FirstN(d8, n - i), d8, q + i);
}

// specs/map_bits_u8_i8.json: swapped = (a >> 4) | (a << 4), mixed = ~a ^ ((a >> 3) & 0x5A),
// halved = (s >> 1) + (s >> 7) - (s << 6), odd = (s & 1) == 1 ? s >> 2 : ~s | 0x40 (Highway's
// 8-bit shifts are emulated on x86 as the generated ones are).
template <class DU, class DI, class VU, class VI>
HWY_INLINE void Bits(DU du, DI di, VU va, VI vs, VU& swapped, VU& mixed, VI& halved, VI& odd) {
  swapped = hn::Or(hn::ShiftRight<4>(va), hn::ShiftLeft<4>(va));
  mixed = hn::Xor(hn::Not(va), hn::And(hn::ShiftRight<3>(va), hn::Set(du, uint8_t{0x5A})));
  halved = hn::Sub(hn::Add(hn::ShiftRight<1>(vs), hn::ShiftRight<7>(vs)), hn::ShiftLeft<6>(vs));
  const auto one = hn::Set(di, int8_t{1});
  odd = hn::IfThenElse(hn::Eq(hn::And(vs, one), one), hn::ShiftRight<2>(vs), hn::Or(hn::Not(vs), hn::Set(di, int8_t{0x40})));
}

void BitsU8I8(const uint8_t* HWY_RESTRICT a, const int8_t* HWY_RESTRICT s, int64_t n64, uint8_t* HWY_RESTRICT swapped,
              uint8_t* HWY_RESTRICT mixed, int8_t* HWY_RESTRICT halved, int8_t* HWY_RESTRICT odd) {
  const hn::ScalableTag<uint8_t> du;
  const hn::ScalableTag<int8_t> di;
  const size_t N = hn::Lanes(du);
  const size_t n = static_cast<size_t>(n64);
  hn::Vec<decltype(du)> o1, o2;
  hn::Vec<decltype(di)> o3, o4;
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N) {
      Bits(du, di, hn::LoadU(du, a + i), hn::LoadU(di, s + i), o1, o2, o3, o4);
      hn::StoreU(o1, du, swapped + i);
      hn::StoreU(o2, du, mixed + i);
      hn::StoreU(o3, di, halved + i);
      hn::StoreU(o4, di, odd + i);
    }
  }
  if (i == n) return;
  const auto mu = hn::FirstN(du, n - i);
  const auto mi = hn::FirstN(di, n - i);
  Bits(du, di, hn::MaskedLoad(mu, du, a + i), hn::MaskedLoad(mi, di, s + i), o1, o2, o3, o4);
  hn::BlendedStore(o1, mu, du, swapped + i);
  hn::BlendedStore(o2, mu, du, mixed + i);
  hn::BlendedStore(o3, mi, di, halved + i);
  hn::BlendedStore(o4, mi, di, odd + i);
}

// specs/map_norm_floor_f32.json: norm = sqrt(x * x + y * y), cell = floor(x * 0.25).
void NormFloorF32(const float* HWY_RESTRICT x, const float* HWY_RESTRICT y, int64_t n64, float* HWY_RESTRICT norm,
                  float* HWY_RESTRICT cell) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const size_t n = static_cast<size_t>(n64);
  const auto quarter = hn::Set(d, 0.25f);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N) {
      const auto vx = hn::LoadU(d, x + i), vy = hn::LoadU(d, y + i);
      hn::StoreU(hn::Sqrt(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy))), d, norm + i);
      hn::StoreU(hn::Floor(hn::Mul(vx, quarter)), d, cell + i);
    }
  }
  if (i == n) return;
  const auto m = hn::FirstN(d, n - i);
  const auto vx = hn::MaskedLoad(m, d, x + i), vy = hn::MaskedLoad(m, d, y + i);
  hn::BlendedStore(hn::Sqrt(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy))), m, d, norm + i);
  hn::BlendedStore(hn::Floor(hn::Mul(vx, quarter)), m, d, cell + i);
}

// specs/map_blend_u8.json: SaturatedAdd, SaturatedSub and AverageRound of two byte arrays.
void BlendU8(const uint8_t* HWY_RESTRICT a, const uint8_t* HWY_RESTRICT b, int64_t n64, uint8_t* HWY_RESTRICT lighten,
             uint8_t* HWY_RESTRICT darken, uint8_t* HWY_RESTRICT mean) {
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  const size_t n = static_cast<size_t>(n64);
  size_t i = 0;
  if (n >= N) {
    for (; i <= n - N; i += N) {
      const auto va = hn::LoadU(d, a + i), vb = hn::LoadU(d, b + i);
      hn::StoreU(hn::SaturatedAdd(va, vb), d, lighten + i);
      hn::StoreU(hn::SaturatedSub(va, vb), d, darken + i);
      hn::StoreU(hn::AverageRound(va, vb), d, mean + i);
    }
  }
  if (i == n) return;
  const auto m = hn::FirstN(d, n - i);
  const auto va = hn::MaskedLoad(m, d, a + i), vb = hn::MaskedLoad(m, d, b + i);
  hn::BlendedStore(hn::SaturatedAdd(va, vb), m, d, lighten + i);
  hn::BlendedStore(hn::SaturatedSub(va, vb), m, d, darken + i);
  hn::BlendedStore(hn::AverageRound(va, vb), m, d, mean + i);
}

}  // namespace HWY_NAMESPACE
}  // namespace simdgen_bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdgen_bench {
HWY_EXPORT(TimesTwo);
HWY_EXPORT(AxpbyFma);
HWY_EXPORT(AbsDiffI16);
HWY_EXPORT(U8ToF32Fma);
HWY_EXPORT(F32ToU8Nearest);
HWY_EXPORT(BitsU8I8);
HWY_EXPORT(NormFloorF32);
HWY_EXPORT(BlendU8);

void hwy_times_two(const float* a, int64_t n, float* b) {
  HWY_DYNAMIC_DISPATCH(TimesTwo)(a, n, b);
}
void hwy_axpby_fma(const float* x, const float* y, int64_t n, float alpha, float beta,
                   float* out) {
  HWY_DYNAMIC_DISPATCH(AxpbyFma)(x, y, n, alpha, beta, out);
}
void hwy_absdiff_i16(const int16_t* a, const int16_t* b, int64_t n, int16_t* out) {
  HWY_DYNAMIC_DISPATCH(AbsDiffI16)(a, b, n, out);
}
void hwy_u8_to_f32_fma(const uint8_t* px, int64_t n, float scale, float bias, float* y) {
  HWY_DYNAMIC_DISPATCH(U8ToF32Fma)(px, n, scale, bias, y);
}
void hwy_f32_to_u8_nearest(const float* x, int64_t n, float scale, uint8_t* q) {
  HWY_DYNAMIC_DISPATCH(F32ToU8Nearest)(x, n, scale, q);
}

void hwy_bits_u8_i8(const uint8_t* a, const int8_t* s, int64_t n, uint8_t* swapped, uint8_t* mixed,
                    int8_t* halved, int8_t* odd) {
  HWY_DYNAMIC_DISPATCH(BitsU8I8)(a, s, n, swapped, mixed, halved, odd);
}

void hwy_norm_floor_f32(const float* x, const float* y, int64_t n, float* norm, float* cell) {
  HWY_DYNAMIC_DISPATCH(NormFloorF32)(x, y, n, norm, cell);
}

void hwy_blend_u8(const uint8_t* a, const uint8_t* b, int64_t n, uint8_t* lighten, uint8_t* darken, uint8_t* mean) {
  HWY_DYNAMIC_DISPATCH(BlendU8)(a, b, n, lighten, darken, mean);
}

HighwayMapAvx3 hwy_map_avx3_dl() {
  HighwayMapAvx3 k;
#if HWY_TARGETS & HWY_AVX3_DL
  if (hwy::SupportedTargets() & HWY_AVX3_DL) {
    k.times_two = &N_AVX3_DL::TimesTwo;
    k.axpby_fma = &N_AVX3_DL::AxpbyFma;
    k.absdiff_i16 = &N_AVX3_DL::AbsDiffI16;
    k.u8_to_f32_fma = &N_AVX3_DL::U8ToF32Fma;
    k.f32_to_u8_nearest = &N_AVX3_DL::F32ToU8Nearest;
    k.bits_u8_i8 = &N_AVX3_DL::BitsU8I8;
    k.norm_floor_f32 = &N_AVX3_DL::NormFloorF32;
    k.blend_u8 = &N_AVX3_DL::BlendU8;
  }
#endif
  return k;
}
}  // namespace simdgen_bench
#endif  // HWY_ONCE
