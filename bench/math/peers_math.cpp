// SPDX-License-Identifier: Apache-2.0
// The math benchmark's list of peers (peers_math.h) and the context its results depend on.
// Compiled with the project's default flags (no -march): it only takes addresses and asks the CPU.
#include "peers_math.h"

#include <immintrin.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "bench_math_kernels.inc"  // the generated kernels, BENCH_MATH_KERNELS(X) (bench/math/CMakeLists.txt)

namespace simdgen_bench_math {

namespace {

bool cpu_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool cpu_avx512f() { return __builtin_cpu_supports("avx512f"); }

// The generated variants' requirements (their dispatcher's checks).
bool variant_supported(const std::string& suffix) {
  if (suffix == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma");
  if (suffix == "avx2_fma") return cpu_avx2_fma();
  if (suffix == "avx2") return __builtin_cpu_supports("avx2");
  return suffix == "scalar";
}

std::vector<Peer> make_peers() {
  std::vector<Peer> v;
  // simdgen: the dispatcher, then every variant by name.
#define BENCH_MATH_VARIANT(name, fn, dtype, ulp, s)                                                  \
  v.push_back({"simdgen.ulp" #ulp "." #s, "simdgen", #fn, std::string(#dtype) == "f64", ulp,        \
               reinterpret_cast<void*>(&name##_##s), variant_supported(#s), "variant called by name"});
#define BENCH_MATH_KERNEL(name, fn, dtype, ulp)                                                      \
  v.push_back({"simdgen.ulp" #ulp, "simdgen", #fn, std::string(#dtype) == "f64", ulp,                \
               reinterpret_cast<void*>(&name), true, std::string("dispatcher: ") + name##_variant()}); \
  BENCH_MATH_VARIANTS_##name
  BENCH_MATH_KERNELS(BENCH_MATH_KERNEL)
#undef BENCH_MATH_KERNEL
#undef BENCH_MATH_VARIANT

#if SIMDGEN_BENCH_MATH_SLEEF
  // "u10_avx512f" -> "sleef.u10.avx512f"
#define BENCH_MATH_SLEEF(variant, fn, dtype, ulp, feature)                                           \
  {                                                                                                  \
    std::string impl = "sleef." #variant;                                                            \
    if (const auto at = impl.find('_'); at != std::string::npos) impl[at] = '.';                     \
    v.push_back({impl, "sleef", #fn, std::string(#dtype) == "f64", ulp,                              \
                 reinterpret_cast<void*>(&sleef_##fn##_##dtype##_##variant),                         \
                 feature == 2 ? cpu_avx512f() : feature == 1 ? cpu_avx2_fma() : true, ""});           \
  }
  SIMDGEN_BENCH_MATH_SLEEF_PEERS(BENCH_MATH_SLEEF)
#undef BENCH_MATH_SLEEF
#endif

  // The -march=native builds run on this machine (where they were compiled) only.
  for (const char* fn : {"exp", "log"})
    for (bool f64 : {false, true}) {
      const std::string f = fn;
      const bool e = f == "exp";
      auto pick = [&](void* e32, void* l32, void* e64, void* l64) { return f64 ? (e ? e64 : l64) : (e ? e32 : l32); };
#define BENCH_MATH_FOUR(prefix, suffix)                                                             \
  pick(reinterpret_cast<void*>(&prefix##_exp_f32##suffix), reinterpret_cast<void*>(&prefix##_log_f32##suffix), \
       reinterpret_cast<void*>(&prefix##_exp_f64##suffix), reinterpret_cast<void*>(&prefix##_log_f64##suffix))
      v.push_back({"libmvec.gcc12", "libmvec", f, f64, 4, BENCH_MATH_FOUR(plain, _gcc12_libmvec), true,
                   "g++-12 -O3 -march=native -ffast-math -fopenmp-simd: _ZGVeN16v/_ZGVeN8v (AVX-512)"});
      v.push_back({"libmvec.clang19", "libmvec", f, f64, 4, BENCH_MATH_FOUR(plain, _clang19_libmvec), true,
                   "clang++-19 -O3 -march=native -ffast-math -fveclib=libmvec: _ZGVdN8v/_ZGVdN4v (AVX2)"});
      v.push_back({"hwy", "hwy", f, f64, e ? 1 : 4, BENCH_MATH_FOUR(hwy, ), true,
                   std::string("static target ") + highway_target()});
      v.push_back({"eigen", "eigen", f, f64, 0, BENCH_MATH_FOUR(eigen, ), true, "-O3 -march=native"});
      v.push_back({"plain.clang19", "plain", f, f64, 1, BENCH_MATH_FOUR(plain, _clang19), true,
                   "clang++-19 -O3 -march=native: glibc scalar per element"});
      v.push_back({"plain.gcc12", "plain", f, f64, 1, BENCH_MATH_FOUR(plain, _gcc12), true,
                   "g++-12 -O3 -march=native: glibc scalar per element"});
#undef BENCH_MATH_FOUR
    }
  return v;
}

std::string cpuinfo(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    if (k == key) return colon + 2 <= line.size() ? line.substr(colon + 2) : "";
  }
  return "?";
}

}  // namespace

const std::vector<Peer>& all_peers() {
  static const std::vector<Peer> peers = make_peers();
  return peers;
}

std::vector<std::pair<std::string, std::string>> context() {
  char mxcsr[16];
  // The control bits only (the low six are sticky exception flags): 0x1f80 is the default, round to
  // nearest with every exception masked and neither flush-to-zero (0x8000) nor denormals-are-zero (0x40).
  std::snprintf(mxcsr, sizeof mxcsr, "0x%04x", _mm_getcsr() & ~0x3fu);
  return {
      {"cpu_model_name", cpuinfo("model name")},
      {"cpu_family", cpuinfo("cpu family")},
      {"cpu_model", cpuinfo("model")},
      {"simdgen_dispatch_f32_exp", bench_math_exp_f32_ulp1_variant()},
      {"highway_static_target", highway_target()},
#if SIMDGEN_BENCH_MATH_SLEEF
      {"sleef_version", sleef_version()},
#else
      {"sleef_version", "(not built: libsleef-dev missing)"},
#endif
      {"mxcsr", mxcsr},
  };
}

}  // namespace simdgen_bench_math
