// SPDX-License-Identifier: Apache-2.0
// The accuracy of the math functions (docs/math.md): every generated kernel y = fn(x) of
// tests/math (one per function, dtype and tier), every variant this CPU runs, against references
// computed in a wider type by the C library (f32: double; f64: long double), in ULP (ulp_error.h).
//
//   math_accuracy                 special values, every exponent's boundaries, the thresholds of
//                                 overflow and underflow, the known hard cases, 2^20 random f32
//                                 and 2^24 random f64 inputs (fewer with --random N)
//   math_accuracy --exhaustive    every one of the 2^32 f32 inputs (minutes; not in CI)
//   --only exp, --variant avx2_fma, --max-ulp 4   one function, variant, tier;  --threads T (default 2)
// Prints each kernel's and variant's largest error and its input; fails (exit 1) where one is over
// the kernel's tier or a special value differs (or, for recip and rsqrt at 1 ULP, a result is not
// the correctly rounded one).
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "math_kernels.inc"  // the kernels' headers and MATH_KERNELS(X), written by tests/math/CMakeLists.txt
#include "simdgen_cpu_checks.h"
#include "math_reference.h"
#include "ulp_error.h"

namespace {

using simdgen_math_test::ulp_error;

template <class T>
using KernelFn = void (*)(const T*, int64_t, T*);

struct Variant {
  const char* suffix;
  void* fn;
};

struct Kernel {
  const char* name;
  const char* fn;
  bool f32;
  int max_ulp;
  std::vector<Variant> variants;
};

// The references: the C library's functions in the wider type (math_reference.h).
double ref32(const std::string& fn, double x) { return simdgen_math_test::math_reference<double>(fn, x); }
long double ref64(const std::string& fn, long double x) { return simdgen_math_test::math_reference<long double>(fn, x); }

template <class T>
T from_bits(uint64_t b) {
  if constexpr (sizeof(T) == 4) {
    const uint32_t u = uint32_t(b);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  } else {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
  }
}

// The inputs every run checks: zeros, infinities, NaNs (quiet, signalling, with payloads), the
// extremes, every power of two and its neighbours, the integers and halves near zero, the hard
// cases of the exhaustive runs, and the overflow and underflow thresholds of exp and exp2 with
// their neighbours.
template <class T>
std::vector<T> special_inputs() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::signaling_NaN(),
                      L::max(), -L::max(), L::min(), -L::min(), L::denorm_min(), -L::denorm_min(), L::epsilon(), T(1), T(-1)};
  v.push_back(from_bits<T>(sizeof(T) == 4 ? 0x7fc12345u : 0x7ff8000012345678ull));  // a payload
  for (int e = L::min_exponent - L::digits - 1; e <= L::max_exponent; ++e)
    for (T s : {T(1), T(-1)}) {
      const T p = std::ldexp(s, e);
      v.insert(v.end(), {p, std::nextafter(p, T(0)), std::nextafter(p, 2 * p)});
    }
  for (int k = -200; k <= 200; ++k) v.push_back(T(k) * T(0.5));
  // exp: e^x overflows above ln(max) and rounds to zero below ln(denorm_min / 2).
  const T thresholds[] = {T(std::log(double(L::max()))), T(std::log(double(L::denorm_min()) / 2)), T(std::log(double(L::min()))),
                          T(std::log(double(L::denorm_min())))};
  for (T t : thresholds) {
    T a = t, b = t;
    for (int k = 0; k < 64; ++k) v.insert(v.end(), {a = std::nextafter(a, L::infinity()), b = std::nextafter(b, -L::infinity())});
  }
  // The worst inputs the exhaustive runs found (docs/math.md), for every f32 function.
  if constexpr (sizeof(T) == 4)
    for (float h : {-0x1.790706p+2f, 0x1.20654cp+2f, 0x1.67cc32p+0f, -0x1.fd30cap-2f, 0x1.69c73ap+0f, -0x1.06p-17f, -0x1.86fbc4p-10f,
                    0x1.08bd94p+0f, 0x1.65a124p-2f, 0x1.648ba8p-2f, 0x1.9f44c4p-2f, 0x1.019566p-126f, 0x1.7431c6p-125f,
                    0x1.ec1c04p+87f, 0x1.647c1cp+15f, 0x1.fec4d2p+103f, 0x1.d2fc54p+113f, 16367173.0f * 0x1p72f})
      v.insert(v.end(), {h, -h});
  // log1p: -1 and its neighbours, a sweep of (-1, 1); expm1: where the result becomes -1, and the
  // reduction's boundaries (k + 1/2) ln2.
  for (T a = T(-1), b = T(-1), k = 0; k < 64; ++k) v.insert(v.end(), {a = std::nextafter(a, T(0)), b = std::nextafter(b, T(-2))});
  for (int k = -4096; k <= 4096; ++k) v.push_back(T(k) / T(4096) + T(k % 7) * L::epsilon());
  for (int k = -L::digits - 4; k <= 4; ++k) v.push_back(T((k + 0.5) * 0.6931471805599453));
  for (T t : {T(std::log(std::ldexp(1.0, -L::digits - 1))), T(std::log(std::ldexp(1.0, -L::digits)))}) {
    T a = t, b = t;
    for (int k = 0; k < 64; ++k) v.insert(v.end(), {a = std::nextafter(a, L::infinity()), b = std::nextafter(b, -L::infinity())});
  }
  for (T t : {T(L::max_exponent), T(L::min_exponent - L::digits - 1), T(L::min_exponent - 1)}) {  // exp2
    T a = t, b = t;
    for (int k = 0; k < 64; ++k) v.insert(v.end(), {a = std::nextafter(a, L::infinity()), b = std::nextafter(b, -L::infinity())});
  }
  return v;
}

struct Worst {
  double err = 0;
  uint64_t bits = 0;
  long double ref = 0;
  double y = 0;
  uint64_t wrong = 0;  // special values that differ, results over the bound (or misrounded)
  uint64_t undecided = 0;  // correctly rounded kernels: references too close to a midpoint to judge
};

// The functions whose 1-ULP tier is correctly rounded (docs/math.md): their results are checked
// against the midpoints around a long double reference (relative error <= 2^-63), not only
// against the bound.
bool correctly_rounded(const Kernel& k) {
  return k.max_ulp == 1 && (std::string(k.fn) == "recip" || std::string(k.fn) == "rsqrt");
}

// y is not the T nearest to `ref`; a ref within 2^-36 (f32) or 2^-9 (f64) ULP of a midpoint, where
// the reference's own error could decide, is counted as undecided instead.
template <class T>
bool misrounded(T y, long double ref, uint64_t& undecided) {
  if (std::isnan(ref) || std::isinf(ref) || ref == 0) return false;  // special values: ulp_error's check
  const T r = T(ref);
  if (std::isinf(r)) return y != r;
  const T up = std::nextafter(r, T(INFINITY)), down = std::nextafter(r, -T(INFINITY));
  const long double ulp = fabsl((long double)up - (long double)r);
  const long double toMidpoint = std::min(fabsl(ref - ((long double)r + up) / 2), fabsl(ref - ((long double)r + down) / 2));
  if (toMidpoint < ulp * (sizeof(T) == 4 ? 0x1p-36L : 0x1p-9L)) return ++undecided, false;
  return y != r;
}

uint64_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t bits_of(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

// Runs one variant over `xs` (in calls of an odd length, so that every call ends in a tail).
template <class T>
void check(const Kernel& k, const Variant& v, const std::vector<T>& xs, Worst& w) {
  std::vector<T> ys(xs.size());
  const auto fn = reinterpret_cast<KernelFn<T>>(v.fn);
  for (size_t at = 0; at < xs.size(); at += 4099) fn(xs.data() + at, int64_t(std::min<size_t>(4099, xs.size() - at)), ys.data() + at);
  for (size_t i = 0; i < xs.size(); ++i) {
    long double ref;
    double err;
    if constexpr (sizeof(T) == 4) {
      const double r = ref32(k.fn, double(xs[i]));
      ref = r;
      err = ulp_error(ys[i], r);
    } else {
      ref = ref64(k.fn, (long double)xs[i]);
      err = ulp_error(ys[i], ref);
    }
    if (err > k.max_ulp) ++w.wrong;
    if (correctly_rounded(k) && misrounded<T>(ys[i], sizeof(T) == 4 ? ref64(k.fn, (long double)xs[i]) : ref, w.undecided)) ++w.wrong;
    if (err > w.err || (err == w.err && w.err == 0 && i == 0)) w.err = err, w.bits = bits_of(xs[i]), w.ref = ref, w.y = double(ys[i]);
  }
}

template <class T>
void report(const Kernel& k, const Variant& v, const Worst& w, uint64_t count, bool& ok) {
  const bool pass = w.wrong == 0;
  ok = ok && pass;
  const T x = from_bits<T>(w.bits);
  std::printf("%-24s %-10s %12" PRIu64 " inputs  max %.3f ULP at x = %a (%.9g): got %a, reference %La%s\n", k.name, v.suffix, count, w.err,
              double(x), double(x), w.y, w.ref, pass ? "" : "   FAIL");
  if (!pass) std::printf("    %" PRIu64 " results over %d ULP, misrounded or special values wrong\n", w.wrong, k.max_ulp);
  if (w.undecided) std::printf("    %" PRIu64 " results too close to a midpoint to judge their rounding\n", w.undecided);
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class T>
bool run_sampled(const Kernel& k, const Variant& v, uint64_t random) {
  std::vector<T> xs = special_inputs<T>();
  uint64_t seed = 0x5eed ^ std::hash<std::string>{}(k.name);
  for (uint64_t i = 0; i < random; ++i) {
    const uint64_t r = splitmix(seed);
    // Half uniform bit patterns (every exponent), half the values the function is usually given.
    xs.push_back(i % 2 ? from_bits<T>(r) : T(double(int64_t(r >> 11)) / double(1ull << 53) * 200.0 - 100.0));
  }
  Worst w;
  check(k, v, xs, w);
  bool ok = true;
  report<T>(k, v, w, xs.size(), ok);
  return ok;
}

bool run_exhaustive(const Kernel& k, const Variant& v, int threads) {
  std::vector<Worst> worst(static_cast<size_t>(threads));
  std::atomic<uint64_t> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<float> xs(1 << 20);
      for (uint64_t block; (block = next.fetch_add(1)) < 4096;) {
        for (uint32_t i = 0; i < xs.size(); ++i) xs[i] = from_bits<float>((block << 20) | i);
        check(k, v, xs, worst[size_t(t)]);
      }
    });
  for (std::thread& t : pool) t.join();
  Worst all;
  for (const Worst& w : worst) {
    all.wrong += w.wrong;
    all.undecided += w.undecided;
    if (w.err >= all.err) all.err = w.err, all.bits = w.bits, all.ref = w.ref, all.y = w.y;
  }
  bool ok = true;
  report<float>(k, v, all, uint64_t(1) << 32, ok);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  bool exhaustive = false;
  uint64_t random32 = 1 << 20, random64 = 1 << 24;
  int threads = 2;
  std::string only, variant, tier;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--exhaustive") exhaustive = true;
    else if (a == "--random" && i + 1 < argc) random32 = random64 = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--variant" && i + 1 < argc) variant = argv[++i];
    else if (a == "--max-ulp" && i + 1 < argc) tier = argv[++i];
    else if (a == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: %s [--exhaustive] [--random N] [--only FUNCTION] [--variant SUFFIX] [--max-ulp 1|4] [--threads T]\n", argv[0]);
      return 2;
    }
  }
  std::vector<Kernel> kernels;
#define MATH_VARIANT(name, suffix) {#suffix, reinterpret_cast<void*>(&name##_##suffix)},
#define MATH_KERNEL(name, fn, dtype, ulp) kernels.push_back({#name, #fn, std::string(#dtype) == "f32", ulp, MATH_VARIANTS_##name});
  MATH_KERNELS(MATH_KERNEL)
  bool ok = true;
  int ran = 0;
  for (const Kernel& k : kernels) {
    if (!only.empty() && only != k.fn) continue;
    if (exhaustive && !k.f32) continue;
    if (!tier.empty() && tier != std::to_string(k.max_ulp)) continue;
    for (const Variant& v : k.variants) {
      if (simdgen_test::variant_support(v.suffix) != simdgen_test::CpuSupport::yes) continue;
      if (!variant.empty() && variant != v.suffix) continue;
      ++ran;
      if (exhaustive) ok = run_exhaustive(k, v, threads) && ok;
      else if (k.f32) ok = run_sampled<float>(k, v, random32) && ok;
      else ok = run_sampled<double>(k, v, random64) && ok;
      std::fflush(stdout);
    }
  }
  if (ran == 0) {
    std::fprintf(stderr, "no kernel variant ran\n");
    return 1;
  }
  return ok ? 0 : 1;
}
