// SPDX-License-Identifier: Apache-2.0
// simdgen_bench_math_accuracy: the largest error, in ULP, of every peer of the math benchmark
// (peers_math.h), measured by one harness: tests/math/ulp_error.h against the C library in a wider
// type (tests/math/math_reference.h; f32: double exp, tanh, ...; f64: long double).
//
// Inputs, the same for every peer of a function:
//   f32: every S-th bit pattern of all 2^32 (S = 7 by default, --stride; 613,566,757 inputs), plus
//        special values and the neighbourhoods of exp's and exp2's overflow and underflow
//        thresholds and of -1 (log1p);
//   f64: 2^22 random inputs (--random64): half uniform bit patterns, half the function's
//        interesting range (math_inputs.h; exp: uniform [-750, 712]; log: 2^u, u uniform in
//        [-1080, 1030]; ...), plus the same special values.
// Prints, per function, dtype and peer: the largest error over all inputs and its input; the
// largest where neither the input nor the result is subnormal (many libraries flush subnormals
// or lose accuracy there); and the number of wrong special values (NaN, infinities, an overflow or
// underflow to zero at the wrong input: ulp_error.h's "infinitely wrong"). --json FILE writes the
// same for bench/math/make_math_table.py.
//
// Usage: simdgen_bench_math_accuracy [--stride S] [--random64 N] [--threads T] [--only FN[,FN...]]
//                                    [--dtype f32|f64] [--peer SUBSTRING] [--json FILE]
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <immintrin.h>

#include "math_inputs.h"
#include "math_reference.h"
#include "peers_math.h"
#include "ulp_error.h"

namespace {

using simdgen_bench_math::Peer;
using simdgen_math_test::ulp_error;

struct Worst {
  double err = -1;  // largest error (all inputs)
  double x = 0, y = 0;
  long double ref = 0;
  double err_normal = -1;  // largest error where neither the input nor the result is subnormal
  double x_normal = 0;
  uint64_t wrong = 0;  // ulp_error's "infinitely wrong": special values, early overflow, ...
  double wrong_x = 0, wrong_y = 0;
  long double wrong_ref = 0;
  uint64_t over_documented = 0;  // finite errors over the documented bound

  void merge(const Worst& o) {
    if (o.err > err || (o.err == err && o.x < x)) err = o.err, x = o.x, y = o.y, ref = o.ref;
    if (o.err_normal > err_normal || (o.err_normal == err_normal && o.x_normal < x_normal))
      err_normal = o.err_normal, x_normal = o.x_normal;
    if (o.wrong && (!wrong || o.wrong_x < wrong_x)) wrong_x = o.wrong_x, wrong_y = o.wrong_y, wrong_ref = o.wrong_ref;
    wrong += o.wrong;
    over_documented += o.over_documented;
  }
};

template <class T>
T from_bits(uint64_t b) {
  T t;
  if constexpr (sizeof(T) == 4) {
    const uint32_t u = static_cast<uint32_t>(b);
    std::memcpy(&t, &u, 4);
  } else {
    std::memcpy(&t, &b, 8);
  }
  return t;
}
template <class T>
uint64_t bits_of(T t) {
  if constexpr (sizeof(T) == 4) {
    uint32_t u;
    std::memcpy(&u, &t, 4);
    return u;
  } else {
    uint64_t u;
    std::memcpy(&u, &t, 8);
    return u;
  }
}

template <class T>
using Ref = std::conditional_t<sizeof(T) == 4, double, long double>;

// Special values and the places where implementations go wrong: zeros, infinities, NaNs, the
// extremes, every power of two and its neighbours, and with 64 neighbours on each side exp's
// overflow, underflow and normal-range thresholds (expm1's and sigmoid's too), exp2's, and -1
// (log1p's pole). The same for every function: a few hundred inputs.
template <class T>
std::vector<T> special_inputs() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::max(), -L::max(),
                      L::min(), -L::min(), L::denorm_min(), -L::denorm_min(), T(1), T(-1)};
  for (int e = L::min_exponent - L::digits - 1; e <= L::max_exponent; ++e) {
    const T p = std::ldexp(T(1), e);
    v.insert(v.end(), {p, std::nextafter(p, T(0)), std::nextafter(p, 2 * p), -p});
  }
  const T thresholds[] = {T(std::log(double(L::max()))),    T(std::log(double(L::denorm_min()) / 2)),
                          T(std::log(double(L::min()))),    T(std::log(double(L::denorm_min()))),
                          T(L::max_exponent),               T(L::min_exponent - 1),
                          T(L::min_exponent - L::digits),   T(L::min_exponent - L::digits - 1),
                          T(-1)};
  for (T t : thresholds) {
    T a = t, b = t;
    v.push_back(t);
    for (int k = 0; k < 64; ++k) v.insert(v.end(), {a = std::nextafter(a, L::infinity()), b = std::nextafter(b, -L::infinity())});
  }
  return v;
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Runs every peer over xs (one call per peer) and folds the errors into worst[peer].
template <class T>
void check_block(const std::string& fn, const std::vector<const Peer*>& peers, const std::vector<T>& xs, std::vector<T>& ys,
                 std::vector<Ref<T>>& refs, std::vector<Worst>& worst) {
  using L = std::numeric_limits<T>;
  const size_t n = xs.size();
  ys.resize(n);
  refs.resize(n);
  for (size_t i = 0; i < n; ++i) refs[i] = simdgen_math_test::math_reference<Ref<T>>(fn, xs[i]);
  for (size_t p = 0; p < peers.size(); ++p) {
    using Fn = void (*)(const T*, int64_t, T*);
    reinterpret_cast<Fn>(peers[p]->call)(xs.data(), static_cast<int64_t>(n), ys.data());
    Worst& w = worst[p];
    const int bound = peers[p]->documented_ulp;
    for (size_t i = 0; i < n; ++i) {
      const Ref<T> ref = refs[i];
      const T rounded = static_cast<T>(ref);
      // A correctly rounded result is within 0.5 ULP: once the largest error is 0.5 or more it
      // cannot change it (the fast path that keeps this to about a minute).
      if (bits_of(ys[i]) == bits_of(rounded) && w.err >= 0.5 && w.err_normal >= 0.5) continue;
      const double e = ulp_error(ys[i], ref);
      if (std::isinf(e)) {
        if (!w.wrong || double(xs[i]) < w.wrong_x) w.wrong_x = double(xs[i]), w.wrong_y = double(ys[i]), w.wrong_ref = ref;
        ++w.wrong;
        continue;
      }
      if (bound > 0 && e > bound) ++w.over_documented;
      if (e > w.err) w.err = e, w.x = double(xs[i]), w.y = double(ys[i]), w.ref = ref;
      const bool normal = std::isfinite(rounded) && std::fabs(rounded) >= L::min() &&
                          (xs[i] == 0 || !(std::fabs(xs[i]) < L::min()));
      if (normal && e > w.err_normal) w.err_normal = e, w.x_normal = double(xs[i]);
    }
  }
}

struct Options {
  uint64_t stride = 7;
  uint64_t random64 = uint64_t(1) << 22;
  int threads = 2;
  std::string only, dtype, peer, json;
};

// One function and dtype: every selected peer over the same inputs, on `threads` threads.
template <class T>
std::vector<Worst> run(const std::string& fn, const std::vector<const Peer*>& peers, const Options& o, uint64_t& count) {
  const simdgen_bench_math::Inputs& in = simdgen_bench_math::inputs_of(fn);
  const uint64_t salt = std::hash<std::string>{}(fn);
  std::vector<std::vector<Worst>> per_thread(static_cast<size_t>(o.threads), std::vector<Worst>(peers.size()));
  std::atomic<uint64_t> next{0};
  constexpr uint64_t kBlock = 65521;  // prime: every call ends in a partial vector
  uint64_t total;
  if constexpr (sizeof(T) == 4)
    total = ((uint64_t(1) << 32) + o.stride - 1) / o.stride;
  else
    total = o.random64;
  const uint64_t blocks = (total + kBlock - 1) / kBlock;
  std::vector<std::thread> pool;
  for (int t = 0; t < o.threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<T> xs, ys;
      std::vector<Ref<T>> refs;
      std::vector<Worst>& worst = per_thread[size_t(t)];
      if (t == 0) {
        xs = special_inputs<T>();
        check_block<T>(fn, peers, xs, ys, refs, worst);
      }
      for (uint64_t b; (b = next.fetch_add(1)) < blocks;) {
        xs.clear();
        const uint64_t end = std::min(total, (b + 1) * kBlock);
        uint64_t seed = 0x6d617468ull * (b + 1) + salt;
        for (uint64_t i = b * kBlock; i < end; ++i) {
          if constexpr (sizeof(T) == 4) {
            xs.push_back(from_bits<T>(i * o.stride));
          } else {
            const uint64_t r = splitmix(seed);
            if (i % 2) {
              xs.push_back(from_bits<T>(r));
            } else {
              double x = simdgen_bench_math::draw(in.accuracy_f64, double(r >> 11) / double(uint64_t(1) << 53));
              if (in.mirror_below_1 && std::fabs(x) < 1 && (r & 1)) x = -x;
              xs.push_back(x);
            }
          }
        }
        check_block<T>(fn, peers, xs, ys, refs, worst);
      }
    });
  for (auto& th : pool) th.join();
  std::vector<Worst> all(peers.size());
  for (auto& w : per_thread)
    for (size_t p = 0; p < peers.size(); ++p) all[p].merge(w[p]);
  count = total + special_inputs<T>().size();
  return all;
}

std::string json_number(double v) {
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  if (std::isnan(v)) return "\"nan\"";
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--stride" && more) o.stride = std::max<uint64_t>(1, std::strtoull(argv[++i], nullptr, 10));
    else if (a == "--random64" && more) o.random64 = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--threads" && more) o.threads = std::max(1, std::atoi(argv[++i]));
    else if (a == "--only" && more) o.only = argv[++i];
    else if (a == "--dtype" && more) o.dtype = argv[++i];
    else if (a == "--peer" && more) o.peer = argv[++i];
    else if (a == "--json" && more) o.json = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: %s [--stride S] [--random64 N] [--threads T] [--only FN[,FN...]] [--dtype f32|f64] "
                   "[--peer SUBSTRING] [--json FILE]\n",
                   argv[0]);
      return 2;
    }
  }
  if (_mm_getcsr() & 0x8040) {
    std::fprintf(stderr, "MXCSR 0x%04x has FTZ/DAZ set; refusing to run\n", _mm_getcsr());
    return 1;
  }
  for (const auto& [k, v] : simdgen_bench_math::context()) std::printf("# %s: %s\n", k.c_str(), v.c_str());
  std::printf("# f32: every %" PRIu64 "-th bit pattern of 2^32 + specials; f64: %" PRIu64
              " random + specials; reference: double (f32), long double (f64); tests/math/ulp_error.h\n",
              o.stride, o.random64);
  std::string json = "[\n";
  bool first = true;
  // The functions in the peers' order (peers_math.cpp: simdgen's kernels first, exp, exp2, ...).
  std::vector<std::string> functions;
  for (const Peer& p : simdgen_bench_math::all_peers())
    if (std::find(functions.begin(), functions.end(), p.fn) == functions.end()) functions.push_back(p.fn);
  for (const std::string& fn : functions) {
    if (!o.only.empty() && ("," + o.only + ",").find("," + fn + ",") == std::string::npos) continue;
    for (bool f64 : {false, true}) {
      if (!o.dtype.empty() && o.dtype != (f64 ? "f64" : "f32")) continue;
      std::vector<const Peer*> peers;
      for (const Peer& p : simdgen_bench_math::all_peers())
        if (p.fn == fn && p.f64 == f64 && p.supported && p.impl.find(o.peer) != std::string::npos) peers.push_back(&p);
      if (peers.empty()) continue;
      const auto t0 = std::chrono::steady_clock::now();
      uint64_t count = 0;
      const std::vector<Worst> w = f64 ? run<double>(fn, peers, o, count) : run<float>(fn, peers, o, count);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("\n## %s %s: %" PRIu64 " inputs, %.1f s\n", fn.c_str(), f64 ? "f64" : "f32", count, secs);
      std::printf("%-22s %4s %10s  %-26s %-26s %-30s %10s %-16s %7s %s\n", "peer", "doc", "max ULP", "at x", "got",
                  "reference", "no subn.", "at x", "wrong", "first wrong: x -> got (reference)");
      for (size_t p = 0; p < peers.size(); ++p) {
        const Worst& r = w[p];
        char doc[8];
        std::snprintf(doc, sizeof doc, "%d", peers[p]->documented_ulp);
        std::printf("%-22s %4s %10.3f  %-26.9g %-26.9g %-30.12Lg %10.3f %-16.9g %7" PRIu64, peers[p]->impl.c_str(),
                    peers[p]->documented_ulp ? doc : "-", r.err, r.x, r.y, r.ref, r.err_normal, r.x_normal, r.wrong);
        if (r.wrong) std::printf(" %.9g -> %.9g (%.9Lg)", r.wrong_x, r.wrong_y, r.wrong_ref);
        if (r.over_documented) std::printf("  [%" PRIu64 " over the documented %d ULP]", r.over_documented, peers[p]->documented_ulp);
        std::printf("\n");
        char ref[64], wref[64];
        std::snprintf(ref, sizeof ref, "%.21Lg", r.ref);
        std::snprintf(wref, sizeof wref, "%.21Lg", r.wrong_ref);
        json += std::string(first ? "" : ",\n") + "  {\"fn\": \"" + fn + "\", \"dtype\": \"" + (f64 ? "f64" : "f32") +
                "\", \"impl\": \"" + peers[p]->impl + "\", \"family\": \"" + peers[p]->family +
                "\", \"documented_ulp\": " + std::to_string(peers[p]->documented_ulp) +
                ", \"inputs\": " + std::to_string(count) + ", \"max_ulp\": " + json_number(r.err) +
                ", \"max_ulp_x\": " + json_number(r.x) + ", \"max_ulp_y\": " + json_number(r.y) + ", \"max_ulp_ref\": \"" + ref +
                "\", \"max_ulp_normal\": " + json_number(r.err_normal) + ", \"max_ulp_normal_x\": " + json_number(r.x_normal) +
                ", \"wrong\": " + std::to_string(r.wrong) + ", \"wrong_x\": " + json_number(r.wrong_x) +
                ", \"wrong_y\": " + json_number(r.wrong_y) + ", \"wrong_ref\": \"" + wref +
                "\", \"over_documented\": " + std::to_string(r.over_documented) + "}";
        first = false;
      }
      std::fflush(stdout);
    }
  }
  json += "\n]\n";
  if (!o.json.empty()) {
    FILE* f = std::fopen(o.json.c_str(), "w");
    if (!f) {
      std::perror(o.json.c_str());
      return 1;
    }
    std::fputs(json.c_str(), f);
    std::fclose(f);
  }
  return 0;
}
