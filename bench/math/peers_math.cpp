// SPDX-License-Identifier: Apache-2.0
// The math benchmark's list of peers (peers_math.h), from the generated kernels and each
// library's table, and the context its results depend on.
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

  // What simdgen offers (SIMDGEN_BENCH_MATH_FUNCTIONS): the other libraries' tables list both
  // dtypes of what they have, and only these are compared.
  auto offered = [](const MathFn& f) {
#define BENCH_MATH_OFFERED(name, type) if (std::string(f.fn) == #name && std::string(f.dtype) == #type) return true;
    SIMDGEN_BENCH_MATH_FUNCTIONS(BENCH_MATH_OFFERED)
#undef BENCH_MATH_OFFERED
    return false;
  };
  auto supported = [](int feature) { return feature == 2 ? cpu_avx512f() : feature == 1 ? cpu_avx2_fma() : true; };
  // One library's table as peers "<family>[.<variant>]"; doc(f) is the documented bound.
  auto add = [&](std::span<const MathFn> table, const std::string& family, const std::string& impl,
                 auto doc, const std::string& note) {
    for (const MathFn& f : table)
      if (offered(f))
        v.push_back({*f.variant ? family + "." + f.variant : impl, family, f.fn, std::string(f.dtype) == "f64", doc(f),
                     f.call, supported(f.feature), note});
  };
  auto own = [](const MathFn& f) { return f.documented_ulp; };
  // sigmoid and gelu are formulas over exp and erfc, not library functions: no documented bound.
  auto formula = [](const MathFn& f) { return std::string(f.fn) == "sigmoid" || std::string(f.fn) == "gelu"; };
  auto glibc = [&](int ulp) { return [&formula, ulp](const MathFn& f) { return formula(f) ? 0 : ulp; }; };

#if SIMDGEN_BENCH_MATH_SLEEF
  add(sleef_math_functions(), "sleef", "sleef", own, "");
#endif
  // The -march=native builds run on this machine (where they were compiled) only.
  add(plain_math_functions_gcc12_libmvec(), "libmvec", "libmvec.gcc12", glibc(4),
      "g++-12 -O3 -march=native -ffast-math -fopenmp-simd: _ZGVeN16v/_ZGVeN8v (AVX-512)");
  add(plain_math_functions_clang19_libmvec(), "libmvec", "libmvec.clang19", glibc(4),
      "clang++-19 -O3 -march=native -ffast-math -fveclib=libmvec: _ZGVdN8v/_ZGVdN4v (AVX2)");
  add(highway_math_functions(), "hwy", "hwy", own, std::string("static target ") + highway_target());
  add(eigen_math_functions(), "eigen", "eigen", own, "-O3 -march=native");
  add(plain_math_functions_clang19(), "plain", "plain.clang19", glibc(1),
      "clang++-19 -O3 -march=native: glibc scalar per element");
  add(plain_math_functions_gcc12(), "plain", "plain.gcc12", glibc(1), "g++-12 -O3 -march=native: glibc scalar per element");
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
