// SPDX-License-Identifier: Apache-2.0
#include "targets/target.h"

#include <algorithm>
#include <stdexcept>

#include "core/isa.h"

namespace simdgen {

bool Target::has(const std::string& f) const {
  return std::find(features.begin(), features.end(), f) != features.end();
}

namespace {
// NEON widens by pairwise adds (saddlp/sadalp: 2 inputs per lane, accumulated), and with dotprod
// sums 4 bytes per 32-bit lane (sdot/udot against ones). Every group keeps the exact sum in the
// accumulator type, which is the output type, so wrap-around is the output's.
std::optional<DotCapability> neonDot(DType in, DType out, bool dotprod) {
  if (bitsOf(out) == 4 * bitsOf(in) && bitsOf(in) == 8 && isSigned(in) == isSigned(out))
    return DotCapability{4, out,
                         dotprod ? std::string(isSigned(in) ? "sdot" : "udot") + " with a ones vector (4 bytes per 32-bit lane)"
                                 : std::string(isSigned(in) ? "saddlp + sadalp" : "uaddlp + uadalp") +
                                       " pairwise widening adds (4 bytes per 32-bit lane)"};
  if (bitsOf(out) == 2 * bitsOf(in) && !isFloat(in) && isSigned(in) == isSigned(out))
    return DotCapability{2, out, std::string(isSigned(in) ? "sadalp" : "uadalp") + " pairwise widening add-accumulate (2 inputs per lane)"};
  return std::nullopt;
}
// SVE sums 4 bytes per 32-bit lane or 4 halfwords per 64-bit lane (sdot/udot against ones);
// SVE2 adds pairwise widening add-accumulate (sadalp/uadalp) for every 2x integer widening.
std::optional<DotCapability> sveDot(DType in, DType out, bool sve2) {
  if (!isFloat(in) && bitsOf(out) == 4 * bitsOf(in) && bitsOf(in) <= 16 && isSigned(in) == isSigned(out))
    return DotCapability{4, out, std::string(isSigned(in) ? "sdot" : "udot") + " with a ones vector (4 inputs per lane)"};
  if (sve2 && bitsOf(out) == 2 * bitsOf(in) && !isFloat(in) && isSigned(in) == isSigned(out))
    return DotCapability{2, out, std::string(isSigned(in) ? "sadalp" : "uadalp") + " pairwise widening add-accumulate (2 inputs per lane)"};
  return std::nullopt;
}
}  // namespace

std::optional<DotCapability> Target::dot(DType in, DType out) const {
  if (vectorBits == 0) return std::nullopt;
  if (module == LoweringModule::neon) return neonDot(in, out, has("dotprod"));
  if (module == LoweringModule::sve) return sveDot(in, out, isa == "sve2");
  const bool vnni = has("vnni") || has("avx_vnni") || isa == "generic";
  if (in == DType::i8 && out == DType::i32)
    return DotCapability{4, DType::i32,
                         vnni ? "vpdpbusd with a ones vector (4 int8 per int32 lane, one instruction)"
                              : "vpmaddubsw + vpmaddwd with ones vectors (4 int8 per int32 lane)"};
  if (in == DType::i8 && out == DType::i16)
    return DotCapability{2, DType::i16, "vpmaddubsw with a ones vector (2 int8 per int16 lane)"};
  if (in == DType::u8 && (out == DType::u16 || out == DType::u32))
    return DotCapability{8, DType::u64,
                         "vpsadbw against zero (8 uint8 per uint64 lane; truncated to the output)"};
  if (in == DType::i16 && out == DType::i32)
    return DotCapability{2, DType::i32,
                         vnni ? "vpdpwssd with a ones vector (2 int16 per int32 lane)"
                              : "vpmaddwd with a ones vector (2 int16 per int32 lane)"};
  return std::nullopt;
}

namespace {

std::string joined(std::vector<std::string_view> names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// Adds a feature's function attribute to `attribute` (comma-separated items). A second
// "arch=<base>+<features>" item joins the first one's modifiers: GCC ignores an attribute with two
// arch= items (neon+dotprod+i8mm is "arch=armv8.2-a+dotprod+i8mm").
void addAttribute(std::string& attribute, const std::string_view feature) {
  constexpr std::string_view kArch = "arch=";
  const size_t arch = attribute.find(kArch);
  if (feature.starts_with(kArch) && arch != std::string::npos && feature.find('+') != std::string_view::npos) {
    const size_t end = attribute.find(',', arch);
    attribute.insert(end == std::string::npos ? attribute.size() : end, feature.substr(feature.find('+')));
    return;
  }
  if (!attribute.empty()) attribute += ",";
  attribute += feature;
}

}  // namespace

Target makeTarget(const TargetRequest& req) {
  const IsaInfo* isa = findIsa(req.isa);
  if (!isa) throw std::invalid_argument("unknown target ISA '" + req.isa + "' (allowed: " + joined(isaNames()) + ")");
  Target t;
  t.isa = req.isa;
  t.features = req.features;
  t.spelling = req.spelling();
  t.suffix = t.spelling;
  std::replace(t.suffix.begin(), t.suffix.end(), '+', '_');
  t.module = isa->module;
  t.vectorBits = isa->vectorBits;
  t.scalable = isa->scalable;
  t.registers = isa->registers;
  t.maskRegisters = isa->maskRegisters;
  t.attribute = isa->attribute;
  t.cpuCheck = isa->cpuCheck;
  t.priority = isa->priority;
  for (const auto& f : req.features) {
    auto it = std::find_if(isa->features.begin(), isa->features.end(), [&](const IsaFeature& x) { return x.name == f; });
    if (it == isa->features.end()) {
      std::vector<std::string_view> allowed;
      for (const IsaFeature& x : isa->features) allowed.push_back(x.name);
      throw std::invalid_argument(req.isa + " has no feature '" + f + "' (allowed: " + joined(allowed) + ")");
    }
    addAttribute(t.attribute, it->attribute);
    if (!t.cpuCheck.empty()) t.cpuCheck += " && ";
    t.cpuCheck += it->cpuCheck;
    t.priority += 1;
  }
  return t;
}

Target makeGenericTarget(int vectorBits) {
  Target t;
  t.isa = "generic";
  t.spelling = t.suffix = "generic" + std::to_string(vectorBits);
  t.vectorBits = vectorBits;
  t.registers = 32;
  t.maskRegisters = true;
  return t;
}

}  // namespace simdgen
