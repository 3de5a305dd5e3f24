// SPDX-License-Identifier: Apache-2.0
// Highway's way: LoadInterleaved3 de-interleaves a vector of pixels, PromoteTo widens each
// quarter of a byte vector to i32, ConvertTo makes floats.
#include <hwy/highway.h>

#include "peers_rgb.h"

namespace hn = hwy::HWY_NAMESPACE;

void rgb_hwy(const uint8_t* rgb, int64_t n, float scale, float* r, float* g, float* b) {
  const hn::ScalableTag<uint8_t> d8;
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Half<decltype(d8)> dh;
  const hn::Half<decltype(dh)> dq;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8)), per = static_cast<int64_t>(hn::Lanes(df));
  const auto s = hn::Set(df, scale);
  auto store4 = [&](hn::Vec<decltype(d8)> v, float* out) {
    const auto lo = hn::LowerHalf(dh, v), hi = hn::UpperHalf(dh, v);
    hn::StoreU(hn::Mul(hn::ConvertTo(df, hn::PromoteTo(di, hn::LowerHalf(dq, lo))), s), df, out);
    hn::StoreU(hn::Mul(hn::ConvertTo(df, hn::PromoteTo(di, hn::UpperHalf(dq, lo))), s), df, out + per);
    hn::StoreU(hn::Mul(hn::ConvertTo(df, hn::PromoteTo(di, hn::LowerHalf(dq, hi))), s), df, out + 2 * per);
    hn::StoreU(hn::Mul(hn::ConvertTo(df, hn::PromoteTo(di, hn::UpperHalf(dq, hi))), s), df, out + 3 * per);
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::Vec<decltype(d8)> vr, vg, vb;
    hn::LoadInterleaved3(d8, rgb + 3 * i, vr, vg, vb);
    store4(vr, r + i);
    store4(vg, g + i);
    store4(vb, b + i);
  }
  for (; i < n; ++i) {
    r[i] = static_cast<float>(rgb[3 * i]) * scale;
    g[i] = static_cast<float>(rgb[3 * i + 1]) * scale;
    b[i] = static_cast<float>(rgb[3 * i + 2]) * scale;
  }
}

void value_hwy(const uint8_t* rgb, int64_t n, uint8_t* value) {
  const hn::ScalableTag<uint8_t> d8;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d8));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::Vec<decltype(d8)> vr, vg, vb;
    hn::LoadInterleaved3(d8, rgb + 3 * i, vr, vg, vb);
    hn::StoreU(hn::Max(hn::Max(vr, vg), vb), d8, value + i);
  }
  for (; i < n; ++i) {
    const uint8_t r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
    const uint8_t m = r > g ? r : g;
    value[i] = m > b ? m : b;
  }
}
