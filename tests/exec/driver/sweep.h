// SPDX-License-Identifier: Apache-2.0
// How much of their grids the family modules run: SIMDGEN_EXEC_SWEEP=full (the default) or thin.
// The thin sweep exists for emulated CPUs (tests/exec_aarch64 runs it at the SVE vector lengths
// the full sweep does not cover): it keeps every length around multiples of any power-of-two
// vector length, the small and edge cases, guard pages and special values, and drops most random
// repetitions.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdgen_exec {

inline bool thin_sweep() {
  static const bool thin = [] {
    const char* v = std::getenv("SIMDGEN_EXEC_SWEEP");
    const std::string s = v ? v : "";
    if (s != "" && s != "full" && s != "thin")
      throw std::invalid_argument("SIMDGEN_EXEC_SWEEP=" + s + ": expected full or thin");
    return s == "thin";
  }();
  return thin;
}

// SIMDGEN_EXEC_VARIANTS=scalable: run only the variants whose code depends on the vector length
// (SVE) and the dispatcher. The other SVE lengths' runs repeat the fixed-width variants (NEON,
// scalar) exactly, so tests/exec_aarch64 gives those their full sweep at one SVE length and on the
// NEON-only CPU, and spares the rest. SIMDGEN_EXEC_VARIANTS=sve: the SVE variants alone (the
// dispatcher too when the kernel has none): on qemu's max the dispatcher calls one of them, so at
// the lengths after the first it repeats a run (exec_aarch64.dispatch/<cpu> checks its choice).
// SIMDGEN_EXEC_VARIANTS=variants: every variant the CPU runs, without the dispatcher (which calls
// one of them; the NEON-only CPU's runs, whose dispatcher picks neon). SIMDGEN_EXEC_VARIANTS=dotprod:
// the NEON variants with dot products (neon_dotprod: sdot/udot; neon_i8mm: usdot; neon_bf16:
// bfdot) alone, which no other run reaches.
inline const std::string& variants_setting() {
  static const std::string setting = [] {
    const char* v = std::getenv("SIMDGEN_EXEC_VARIANTS");
    const std::string s = v ? v : "";
    if (s != "" && s != "all" && s != "scalable" && s != "sve" && s != "variants" && s != "dotprod")
      throw std::invalid_argument("SIMDGEN_EXEC_VARIANTS=" + s + ": expected all, scalable, sve, variants or dotprod");
    return s;
  }();
  return setting;
}
inline bool scalable_variants_only() { return variants_setting() == "scalable" || variants_setting() == "sve"; }
inline bool dispatcher_spared() { return variants_setting() == "sve" || variants_setting() == "variants" || variants_setting() == "dotprod"; }
inline bool dotprod_variants_only() { return variants_setting() == "dotprod"; }
inline bool arm_dot_variant(const std::string& suffix) {
  return suffix.rfind("neon_", 0) == 0 &&
         (suffix.find("dotprod") != std::string::npos || suffix.find("i8mm") != std::string::npos || suffix.find("bf16") != std::string::npos);
}
// Runs of the SVE or dot-product variants alone under emulation: the contraction module shrinks
// their shapes further (the fixed-width variants have their full runs on the NEON-only CPU).
inline bool few_emulated_variants() { return scalable_variants_only() || dotprod_variants_only(); }

// The thin sweep's lengths: 0..17 (below one vector of most widths), and p - 1, p, p + 1 for each
// p <= `last` that is a power of two or three times one (vector multiples, unrolled or not); then
// `more`.
inline std::vector<int64_t> thin_lengths(int64_t last, std::initializer_list<int64_t> more) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i <= 17; ++i) v.push_back(i);
  for (int64_t p = 8; p <= last; p *= 2)
    for (int64_t q : {p, 3 * p})
      if (q >= 24 && q <= last) v.insert(v.end(), {q - 1, q, q + 1});
  v.insert(v.end(), more);
  return v;
}

}  // namespace simdgen_exec
