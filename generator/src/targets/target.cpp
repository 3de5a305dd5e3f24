#include "targets/target.h"

#include <algorithm>
#include <stdexcept>

namespace simdgen {

bool Target::has(const std::string& f) const {
  return std::find(features.begin(), features.end(), f) != features.end();
}

std::optional<DotCapability> Target::dot(DType in, DType out) const {
  if (vectorBits == 0) return std::nullopt;
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

Target makeTarget(const TargetRequest& req) {
  Target t;
  t.isa = req.isa;
  t.features = req.features;
  t.spelling = req.spelling();
  t.suffix = t.spelling;
  std::replace(t.suffix.begin(), t.suffix.end(), '+', '_');
  if (req.isa == "scalar") {
    t.priority = 0;
    return t;
  }
  if (req.isa == "avx2") {
    t.vectorBits = 256;
    t.registers = 16;
    t.attribute = "avx2";
    t.cpuCheck = "__builtin_cpu_supports(\"avx2\")";
    t.priority = 10;
    for (const auto& f : req.features) {
      if (f == "fma") {
        t.attribute += ",fma";
        t.cpuCheck += " && __builtin_cpu_supports(\"fma\")";
      } else if (f == "avx_vnni") {
        t.attribute += ",avxvnni";
        t.cpuCheck += " && __builtin_cpu_supports(\"avxvnni\")";
      } else {
        throw std::invalid_argument("avx2 has no feature '" + f + "' (allowed: fma, avx_vnni)");
      }
      t.priority += 1;
    }
    return t;
  }
  if (req.isa == "avx512") {
    t.vectorBits = 512;
    t.registers = 32;
    t.maskRegisters = true;
    t.attribute = "avx512f,avx512bw,avx512dq,avx512vl";
    t.cpuCheck =
        "__builtin_cpu_supports(\"avx512f\") && __builtin_cpu_supports(\"avx512bw\") && "
        "__builtin_cpu_supports(\"avx512dq\") && __builtin_cpu_supports(\"avx512vl\")";
    t.priority = 20;
    for (const auto& f : req.features) {
      if (f != "vnni") throw std::invalid_argument("avx512 has no feature '" + f + "' (allowed: vnni)");
      t.attribute += ",avx512vnni";
      t.cpuCheck += " && __builtin_cpu_supports(\"avx512vnni\")";
      t.priority += 1;
    }
    return t;
  }
  throw std::invalid_argument("unknown target ISA '" + req.isa + "' (allowed: scalar, avx2, avx512)");
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
