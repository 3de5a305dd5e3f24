// SPDX-License-Identifier: Apache-2.0
// Checks for the hygiene test: each copy of a fixture kernel (runtime extents renamed to an
// identifier of the generated code) must still compute what the scalar references say, in every
// variant this CPU supports and through the dispatcher.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "arg_reference.h"
#include "simdgen_cpu_checks.h"  // generated from `simdgen list --json`
#include "reduce_reference.h"

namespace hygiene {

struct Shape {
  int64_t rows, cols, stride;
};

inline std::vector<Shape> shapes() {
  std::vector<Shape> s;
  for (int64_t rows : {0, 1, 2, 7, 16, 17, 33})
    for (int64_t cols : {0, 1, 15, 16, 17, 63, 64, 65, 200})
      for (int64_t pad : {0, 3}) s.push_back({rows, cols, cols + pad});
  return s;
}

// Values in -100..100 from an LCG seeded by rng: the driver is built -O0 (like the copies, to
// share their precompiled headers), where std::uniform_int_distribution made data generation
// most of the test's run time.
template <class T>
std::vector<T> randomData(size_t n, std::mt19937& rng) {
  std::vector<T> v(n);
  uint64_t state = rng();
  T* out = v.data();
  for (size_t k = 0; k < n; ++k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    out[k] = static_cast<T>(int((state >> 33) % 201) - 100);
  }
  return v;
}

template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (a != a && b != b) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

inline bool report(const char* kernel, const char* variant, const Shape& s, bool ok) {
  if (!ok)
    std::printf("FAIL %s [%s] rows=%lld cols=%lld stride=%lld\n", kernel, variant, (long long)s.rows,
                (long long)s.cols, (long long)s.stride);
  return ok;
}

inline bool runs(const char* variant) {
  return simdgen_test::variant_support(variant) == simdgen_test::CpuSupport::yes;
}

// fn(input, rows, cols, stride, output) against simdgen_ref::reduce.
template <class In, class Out, class Fn>
bool checkReduce(const char* kernel, const char* variant, Fn fn, simdgen_ref::Op op, int axis) {
  if (!runs(variant)) return true;
  std::mt19937 rng(42);
  bool ok = true;
  for (const Shape& s : shapes()) {
    const std::vector<In> in = randomData<In>(size_t(s.rows * s.stride), rng);
    const size_t n = size_t(axis == 1 ? s.rows : s.cols);
    std::vector<Out> got(n, Out(77)), want(n);
    fn(in.data(), s.rows, s.cols, s.stride, got.data());
    simdgen_ref::reduce<Out, In>(op, axis, in.data(), s.rows, s.cols, s.stride, want.data());
    bool eq = true;
    for (size_t k = 0; k < n; ++k) eq = eq && same(got[k], want[k]);
    ok = report(kernel, variant, s, eq) && ok;
  }
  return ok;
}

// fn(input, rows, cols, stride, values, indices) against simdgen_ref::arg_reduce.
template <class T, class Idx, class Fn>
bool checkArg(const char* kernel, const char* variant, Fn fn, const simdgen_ref::ArgSpec<T>& spec) {
  if (!runs(variant)) return true;
  std::mt19937 rng(43);
  bool ok = true;
  for (const Shape& s : shapes()) {
    std::vector<T> in = randomData<T>(size_t(s.rows * s.stride), rng);
    if (in.size() > 10) in[in.size() / 3] = T(NAN);
    std::vector<T> values(size_t(s.rows)), wantValues(size_t(s.rows));
    std::vector<Idx> indices(size_t(s.rows), Idx(-9)), wantIndices(size_t(s.rows));
    fn(in.data(), s.rows, s.cols, s.stride, values.data(), indices.data());
    simdgen_ref::arg_reduce(spec, in.data(), s.rows, s.cols, s.stride, wantValues.data(), wantIndices.data());
    bool eq = true;
    for (size_t k = 0; k < size_t(s.rows); ++k) eq = eq && same(values[k], wantValues[k]) && indices[k] == wantIndices[k];
    ok = report(kernel, variant, s, eq) && ok;
  }
  return ok;
}

// fn(x, rows, cols, stride, alpha, y): y = select(x > alpha, x - alpha, alpha * 3 + x) on every
// element of the rows x cols window; the padding between rows must stay untouched.
template <class Fn>
bool checkMap(const char* kernel, const char* variant, Fn fn) {
  if (!runs(variant)) return true;
  std::mt19937 rng(44);
  bool ok = true;
  for (const Shape& s : shapes()) {
    const std::vector<int32_t> x = randomData<int32_t>(size_t(s.rows * s.stride), rng);
    const int32_t alpha = int32_t(rng() % 41) - 20;
    std::vector<int32_t> got(x.size(), -777), want(x.size(), -777);
    fn(x.data(), s.rows, s.cols, s.stride, alpha, got.data());
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t c = 0; c < s.cols; ++c) {
        const int32_t v = x[size_t(r * s.stride + c)];
        want[size_t(r * s.stride + c)] = v > alpha ? v - alpha : alpha * 3 + v;
      }
    ok = report(kernel, variant, s, got == want) && ok;
  }
  return ok;
}

// fn(x, b, rows, cols, stride, sx, rsx, sb, y): y[r, c] = select(x > b, x - b, x * 3) with x[r, c]
// at r * rsx + c * sx and the bytes b[r, c] at (r * stride + c) * sb: inputs at strides of their
// own (contiguous, gathered, repeated, column-major); the padding between rows stays untouched.
template <class Fn>
bool checkStrides(const char* kernel, const char* variant, Fn fn) {
  if (!runs(variant)) return true;
  std::mt19937 rng(45);
  bool ok = true;
  for (const Shape& s : shapes()) {
    struct Strides {
      int64_t sx, rsx, sb;
    };
    for (const Strides& k : {Strides{1, s.cols + 2, 1}, Strides{3, 3 * s.cols + 1, 2}, Strides{0, 1, 0}, Strides{s.rows, 1, 5}}) {
      const int64_t xs = s.rows && s.cols ? (s.rows - 1) * k.rsx + (s.cols - 1) * k.sx + 1 : 0;
      const int64_t bs = s.rows && s.cols ? ((s.rows - 1) * s.stride + s.cols - 1) * k.sb + 1 : 0;
      const std::vector<int32_t> x = randomData<int32_t>(size_t(xs), rng);
      const std::vector<int8_t> b = randomData<int8_t>(size_t(bs), rng);
      std::vector<int32_t> got(size_t(s.rows * s.stride), -777), want(got);
      fn(x.data(), b.data(), s.rows, s.cols, s.stride, k.sx, k.rsx, k.sb, got.data());
      for (int64_t r = 0; r < s.rows; ++r)
        for (int64_t c = 0; c < s.cols; ++c) {
          const int32_t v = x[size_t(r * k.rsx + c * k.sx)], w = b[size_t((r * s.stride + c) * k.sb)];
          want[size_t(r * s.stride + c)] = v > w ? v - w : v * 3;
        }
      ok = report(kernel, variant, s, got == want) && ok;
    }
  }
  return ok;
}

// fn(input, rows, cols, ld, output): output[c * ld + r] = input[r * ld + c], both matrices ld
// apart (ld >= rows and ld >= cols); every other element of the output stays untouched.
template <class Fn>
bool checkTranspose(const char* kernel, const char* variant, Fn fn) {
  if (!runs(variant)) return true;
  std::mt19937 rng(46);
  bool ok = true;
  for (Shape s : shapes()) {
    s.stride = (s.rows > s.cols ? s.rows : s.cols) + (s.stride - s.cols);
    const int64_t n = (s.rows > s.cols ? s.rows : s.cols) * s.stride;
    const std::vector<float> x = randomData<float>(size_t(n), rng);
    std::vector<float> got(size_t(n), -777.0f), want(got);
    fn(x.data(), s.rows, s.cols, s.stride, got.data());
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t c = 0; c < s.cols; ++c) want[size_t(c * s.stride + r)] = x[size_t(r * s.stride + c)];
    ok = report(kernel, variant, s, got == want) && ok;
  }
  return ok;
}

// fn(a, b, bias, rows, cols, depth, lda, ldb, ldc, [scale,] res): res[r][c] = relu([scale *] (bias[c] +
// sum over k of a[r][k] * b[k][c])), a matmul whose rows, cols and depth cover tiles and their
// tails. The data are integers in -100..100 and the scales halves, so every sum is exact in f32
// (|sum| < 2^24) in any order: the results must equal the reference exactly. The padding between
// the output's rows stays untouched.
template <bool Scaled, class Fn>
bool checkContraction(const char* kernel, const char* variant, Fn fn) {
  if (!runs(variant)) return true;
  std::mt19937 rng(47);
  bool ok = true;
  for (const Shape& s : shapes()) {
    for (int64_t depth : {int64_t(0), int64_t(1), int64_t(37)}) {
      const int64_t pad = s.stride - s.cols, lda = depth + pad, ldb = s.cols + 1, ldc = s.stride;
      const std::vector<float> a = randomData<float>(size_t(s.rows * lda), rng);
      const std::vector<float> b = randomData<float>(size_t(depth * ldb), rng);
      const std::vector<float> bias = randomData<float>(size_t(s.cols), rng);
      const float scale = Scaled ? float(int(rng() % 9) - 4) * 0.5f : 1.0f;
      std::vector<float> got(size_t(s.rows * ldc), -777.0f), want(got);
      if constexpr (Scaled)
        fn(a.data(), b.data(), bias.data(), s.rows, s.cols, depth, lda, ldb, ldc, scale, got.data());
      else
        fn(a.data(), b.data(), bias.data(), s.rows, s.cols, depth, lda, ldb, ldc, got.data());
      for (int64_t r = 0; r < s.rows; ++r)
        for (int64_t c = 0; c < s.cols; ++c) {
          float sum = bias[size_t(c)];
          for (int64_t k = 0; k < depth; ++k) sum += a[size_t(r * lda + k)] * b[size_t(k * ldb + c)];
          sum *= scale;
          want[size_t(r * ldc + c)] = sum > 0.0f ? sum : 0.0f;
        }
      ok = report(kernel, variant, s, got == want) && ok;
    }
  }
  return ok;
}

}  // namespace hygiene
