// SPDX-License-Identifier: Apache-2.0
// Target tables: what each ISA offers the plan builders (vector width, registers, masked tails,
// widening dot products) and what the emitter needs to guard a variant (function attribute,
// run-time CPU check). Builders ask for capabilities, never for intrinsic names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/isa.h"
#include "ir/plan.h"
#include "spec/spec.h"

namespace simdgen {

// A widening sum that adds `group` adjacent inputs into each accumulator lane in one step.
struct DotCapability {
  int group = 1;
  DType acc = DType::i32;    // accumulator lane type (may be wider than the output, then truncated)
  std::string instruction;  // for the generated comment: "vpdpbusd (AVX512-VNNI) with a ones vector"
};

struct Target {
  std::string spelling;  // "avx512+vnni"
  std::string isa;       // a name from the ISA registry (core/isa.h), or "generic"
  LoweringModule module = LoweringModule::none;  // none: plan simulation only
  std::vector<std::string> features;
  std::string suffix;     // "avx512_vnni": the variant's function-name suffix
  int vectorBits = 0;     // 0 = scalar; the minimum (128) when scalable
  bool scalable = false;  // SVE: vectors of vscale * vectorBits bits, vscale known at run time
  int registers = 0;      // architectural vector registers
  bool maskRegisters = false;        // predicated tails with per-lane masks (AVX-512)
  std::string attribute;  // __attribute__((target(...))) string; empty for scalar
  std::string cpuCheck;   // C condition the dispatcher tests; empty = always
  int priority = 0;       // dispatcher tries higher first

  // Whether tails of rows at least one vector long re-read the row's last whole vector and blend
  // away the lanes already counted, instead of a masked load. Measured on Zen 4 (384x500 rows,
  // A/B in one session, ratios to the peer in the same run): AVX-512 32/64-bit lanes 0.85-0.92x
  // -> 0.99-1.08x of Highway (which reads tails this way), but i8 with VNNI 0.89x -> 0.76x of the
  // hand loop, so AVX-512 bytes and words keep the masked load; AVX2 has no byte/word masked
  // load at all, while its vpmaskmov measures the same as the re-read (kept).
  // NEON has no masked load at all: every width re-reads (one load and one bsl).
  bool rowEndTails(DType t) const {
    if (module == LoweringModule::neon) return true;
    if (module != LoweringModule::x86) return false;
    return isa == "avx2" ? bitsOf(t) <= 16 : isa == "avx512" && bitsOf(t) >= 32;
  }
  // Whether the final reductions of several rows fold adjacent lanes (NEON addp/smaxp: one
  // instruction per pair of vectors) instead of the x86 shuffle network.
  bool pairwiseFolds() const { return module == LoweringModule::neon; }
  // Whether a vector's float sum folds adjacent lanes first, the order of Arm's across-vector
  // faddv (SVE) and faddp (NEON vaddvq): one or two instructions instead of log2(lanes) steps.
  bool pairwiseLaneSums() const { return module == LoweringModule::neon || module == LoweringModule::sve; }
  bool has(const std::string& feature) const;
  // VNNI (vpdpbusd, vpdpwssd) at this vector width: AVX512-VNNI on zmm, AVX-VNNI on ymm.
  bool vnniAt(int bits) const { return bits == 512 ? has("vnni") : has("avx_vnni"); }
  // Lanes of a vector of t; per vscale when scalable (the count at the minimum length).
  int lanes(DType t) const { return vectorBits ? vectorBits / bitsOf(t) : 1; }
  // The vector type of t on this target (scalable on SVE; one lane on scalar).
  ir::VecType vector(DType t) const { return {t, lanes(t), scalable && vectorBits > 0, false}; }
  std::optional<DotCapability> dot(DType in, DType out) const;
};

// The one factory for spec targets. Throws std::invalid_argument for an unknown ISA/feature.
Target makeTarget(const TargetRequest& request);
// A vector-length-agnostic stand-in for plan simulation at any width (128..2048 bits), with the
// dot-product capabilities switched on so every plan shape is exercised.
Target makeGenericTarget(int vectorBits);

}  // namespace simdgen
