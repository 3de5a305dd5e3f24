// SPDX-License-Identifier: Apache-2.0
#include "core/isa.h"

#include <algorithm>

namespace simdgen {

namespace {

constexpr IsaFeature kAvx2Features[] = {
    {"avx_vnni", "avxvnni", "__builtin_cpu_supports(\"avxvnni\")"},
    {"fma", "fma", "__builtin_cpu_supports(\"fma\")"},
    {"gfni", "gfni", "__builtin_cpu_supports(\"gfni\")"},
};
// gfni: byte shifts as one vgf2p8affineqb (x86 has no byte shift; without it, 16-bit shifts and a mask).
constexpr IsaFeature kAvx512Features[] = {
    {"vnni", "avx512vnni", "__builtin_cpu_supports(\"avx512vnni\")"},
    {"gfni", "gfni", "__builtin_cpu_supports(\"gfni\")"},
    // bf16: vdpbf16ps, two bf16 products per f32 lane (contractions of bf16 operands).
    {"bf16", "avx512bf16", "__builtin_cpu_supports(\"avx512bf16\")"},
    // vpopcnt: popcount() in one instruction at every width (VPOPCNTDQ: 32/64-bit lanes, BITALG:
    // 8/16; Ice Lake and Zen 4 on have both).
    {"vpopcnt", "avx512vpopcntdq,avx512bitalg",
     "__builtin_cpu_supports(\"avx512vpopcntdq\") && __builtin_cpu_supports(\"avx512bitalg\")"},
    // vbmi: vpermb/vpermt2b, byte permutes across the register (Ice Lake, Zen 4 on): 8/16-bit
    // lanes at a static stride of 2..4 (RGB channels) from whole loads, two or three shuffles each.
    {"vbmi", "avx512vbmi", "__builtin_cpu_supports(\"avx512vbmi\")"},
};

// Linux reports Arm features in AT_HWCAP / AT_HWCAP2 (bits from <asm/hwcap.h>); simdgen_arm_hwcap
// is defined by the NEON module's CPU support code. NEON itself is part of every AArch64 Linux CPU.
constexpr IsaFeature kNeonFeatures[] = {
    {"dotprod", "arch=armv8.2-a+dotprod", "(simdgen_arm_hwcap(1) & (1ul << 20)) /* HWCAP_ASIMDDP */"},
    // i8mm: usdot, four u8 x s8 products per 32-bit lane (contractions of u8 and i8 operands).
    {"i8mm", "arch=armv8.2-a+i8mm", "(simdgen_arm_hwcap(2) & (1ul << 13)) /* HWCAP2_I8MM */"},
    // bf16: bfdot, two bf16 products per f32 lane (contractions of bf16 operands).
    {"bf16", "arch=armv8.2-a+bf16", "(simdgen_arm_hwcap(2) & (1ul << 14)) /* HWCAP2_BF16 */"},
};

// SVE's i8mm: usdot on scalable vectors (HWCAP2_SVEI8MM). The attribute's arch= item names the
// SVE level too: GCC 12 does not pass "+sve+i8mm" on to the assembler (usdot is rejected).
constexpr IsaFeature kSveFeatures[] = {
    {"i8mm", "arch=armv8.2-a+sve+i8mm", "(simdgen_arm_hwcap(2) & (1ul << 9)) /* HWCAP2_SVEI8MM */"},
    {"bf16", "arch=armv8.2-a+sve+bf16", "(simdgen_arm_hwcap(2) & (1ul << 12)) /* HWCAP2_SVEBF16 */"},
};
constexpr IsaFeature kSve2Features[] = {
    {"i8mm", "arch=armv8.2-a+sve2+i8mm", "(simdgen_arm_hwcap(2) & (1ul << 9)) /* HWCAP2_SVEI8MM */"},
    {"bf16", "arch=armv8.2-a+sve2+bf16", "(simdgen_arm_hwcap(2) & (1ul << 12)) /* HWCAP2_SVEBF16 */"},
};

constexpr IsaInfo kIsas[] = {
    {"scalar", LoweringModule::scalar, 0, false, 0, false, "", "", 0, {}, ""},
    {"avx2", LoweringModule::x86, 256, false, 16, false, "avx2", "__builtin_cpu_supports(\"avx2\")", 10, kAvx2Features, ""},
    // BMI2 (on every AVX-512 CPU with BW and VL): bzhi makes a tail's k-mask in one instruction.
    // FMA (likewise): GCC's avx512f does not enable the 128/256-bit FMA intrinsics, which the
    // fractional vectors of a mixed-width map use (f32 values beside f64 ones).
    {"avx512", LoweringModule::x86, 512, false, 32, true, "avx512f,avx512bw,avx512dq,avx512vl,bmi2,fma",
     "__builtin_cpu_supports(\"avx512f\") && __builtin_cpu_supports(\"avx512bw\") && "
     "__builtin_cpu_supports(\"avx512dq\") && __builtin_cpu_supports(\"avx512vl\") && __builtin_cpu_supports(\"bmi2\") && "
     "__builtin_cpu_supports(\"fma\")",
     20, kAvx512Features, "avx512 already implies F, BW, DQ and VL"},
    {"neon", LoweringModule::neon, 128, false, 32, false, "", "", 10, kNeonFeatures, ""},
    // SVE code is vector-length agnostic: one variant for every length, predicates in registers.
    {"sve", LoweringModule::sve, 128, true, 32, true, "+sve", "(simdgen_arm_hwcap(1) & (1ul << 22)) /* HWCAP_SVE */", 15, kSveFeatures, ""},
    {"sve2", LoweringModule::sve, 128, true, 32, true, "+sve2", "(simdgen_arm_hwcap(2) & (1ul << 1)) /* HWCAP2_SVE2 */", 20, kSve2Features,
     ""},
};

constexpr std::string_view kDefaultTargets[] = {"avx512+vnni", "avx512+gfni", "avx512+vbmi", "avx512", "avx2", "sve2", "sve", "neon+dotprod", "neon", "scalar"};

}  // namespace

std::span<const IsaInfo> isaRegistry() { return kIsas; }

const IsaInfo* findIsa(std::string_view name) {
  for (const IsaInfo& i : kIsas)
    if (i.name == name) return &i;
  return nullptr;
}

std::vector<std::string_view> isaNames() {
  std::vector<std::string_view> names;
  for (const IsaInfo& i : kIsas) names.push_back(i.name);
  return names;
}

std::span<const std::string_view> defaultTargets() { return kDefaultTargets; }

}  // namespace simdgen
