// SPDX-License-Identifier: Apache-2.0
// The ISA registry: every target ISA simdgen knows, its features, what a variant needs to be
// compiled (function attribute) and run (CPU check), and which lowering module spells its code.
// Read by the spec parser (allowed targets), the target factory, the emitter (guards, dispatch)
// and `simdgen list`; adding an ISA is one entry here plus its lowering module.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace simdgen {

enum class LoweringModule { none, scalar, x86, neon, sve };

struct IsaFeature {
  std::string_view name;       // spec spelling after '+': "vnni"
  std::string_view attribute;  // added to the function attribute: "avx512vnni"
  std::string_view cpuCheck;   // added to the dispatcher's condition
};

struct IsaInfo {
  std::string_view name;  // "avx512"
  LoweringModule module;
  int vectorBits;  // 0 = scalar; the minimum (128) when scalable
  bool scalable;   // vector length known only at run time (SVE: 128..2048 bits, a power of two)
  int registers;   // architectural vector registers
  bool maskRegisters;
  std::string_view attribute;  // __attribute__((target(...))) for the base ISA
  std::string_view cpuCheck;   // C condition the dispatcher tests (empty = always)
  int priority;                // the dispatcher tries higher first
  std::span<const IsaFeature> features;
  std::string_view impliedNote;  // a message for features the ISA implies ("" = none)
};

std::span<const IsaInfo> isaRegistry();
const IsaInfo* findIsa(std::string_view name);
std::vector<std::string_view> isaNames();
// The targets a spec without "targets" gets, best first.
std::span<const std::string_view> defaultTargets();

}  // namespace simdgen
