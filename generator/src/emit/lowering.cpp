// SPDX-License-Identifier: Apache-2.0
#include "emit/lowering.h"

#include <algorithm>
#include <stdexcept>

#include "emit/neon_lowering.h"
#include "emit/scalar_lowering.h"
#include "emit/sve_lowering.h"
#include "emit/x86_lowering.h"

namespace simdgen::emit {

void LowerContext::hoist(const std::string& line) {
  if (std::find(prelude.begin(), prelude.end(), line) == prelude.end()) prelude.push_back(line);
}

std::string LowerContext::local(const ir::Stmt& s, const std::string& suffix) {
  if (s.declare) return s.dst + suffix;
  return s.dst + suffix + "_" + std::to_string(1 + ++locals[s.dst + suffix]);
}

std::string OpWriter::decl() const {
  if (!s.declare) return s.dst;
  // A position indexes memory and is compared with extents: a plain int64_t, never a carrier.
  if (s.op == ir::OpKind::SetIndex) return "int64_t " + s.dst;
  return isa.typeName(s.type, cx) + " " + s.dst;
}

bool IsaLowering::inlinesPredicate(const ir::Stmt&, const LowerContext&) const { return false; }
std::string IsaLowering::predicateDeclaration(const ir::Stmt&, LowerContext&) const { return ""; }

std::string prefixLoadPieces() {
  return "  uint64_t lo = 0, rest = 0;\n"
         "  int shift = 0;\n"
         "  if (bytes & 8) __builtin_memcpy(&lo, p, 8), p += 8;\n"
         "  if (bytes & 4) {\n"
         "    uint32_t w;\n"
         "    __builtin_memcpy(&w, p, 4), p += 4, rest = w, shift = 32;\n"
         "  }\n"
         "  if (bytes & 2) {\n"
         "    uint16_t w;\n"
         "    __builtin_memcpy(&w, p, 2), p += 2, rest |= (uint64_t)w << shift, shift += 16;\n"
         "  }\n"
         "  if (bytes & 1) rest |= (uint64_t)*p << shift;\n";
}

std::string prefixStorePieces(const std::string& highHalf) {
  return "  if (bytes & 8) __builtin_memcpy(p, &rest, 8), p += 8, rest = " + highHalf + ";\n" +
         "  if (bytes & 4) {\n"
         "    const uint32_t w = (uint32_t)rest;\n"
         "    __builtin_memcpy(p, &w, 4), p += 4, rest >>= 32;\n"
         "  }\n"
         "  if (bytes & 2) {\n"
         "    const uint16_t w = (uint16_t)rest;\n"
         "    __builtin_memcpy(p, &w, 2), p += 2, rest >>= 16;\n"
         "  }\n"
         "  if (bytes & 1) *p = (uint8_t)rest;\n";
}

std::string IsaLowering::fileHelper(const std::string& name) const {
  if (name == "clamp_lanes")
    return "// n clamped to [0, lanes]: the active-lane count of a whilelt predicate.\n"
           "static inline int64_t simdgen_clamp_lanes(int64_t n, int64_t lanes) { return n < 0 ? 0 : n > lanes ? lanes : n; }";
  if (name == "opaque")
    return "// v, hidden from the optimiser: address arithmetic on it is done where it is used. Without it\n"
           "// GCC hoists a tile's 16 row offsets out of the tile loops and spills them (3x slower tiles).\n"
           "static inline int64_t simdgen_opaque(int64_t v) {\n"
           "#if defined(__GNUC__)\n"
           "  __asm__(\"\" : \"+r\"(v));\n"
           "#endif\n"
           "  return v;\n"
           "}";
  if (name == "kept_f32" || name == "kept_f64") {
    const std::string t = name == "kept_f32" ? "float" : "double", f = name.substr(5);
    return "// x, hidden from the optimiser. GCC and Clang turn -fma(a, b, c) into one negated multiply-add\n"
           "// (fnmadd, vfnmsub), which gives +0.0 where the negation of a zero sum is -0.0.\n"
           "static inline " + t + " simdgen_kept_" + f + "(" + t + " x) {\n"
           "#if defined(__GNUC__) && defined(__x86_64__)\n"
           "  __asm__(\"\" : \"+x\"(x));\n"
           "#elif defined(__GNUC__) && defined(__aarch64__)\n"
           "  __asm__(\"\" : \"+w\"(x));\n"
           "#elif defined(__GNUC__)\n"
           "  __asm__(\"\" : \"+m\"(x));\n"
           "#endif\n"
           "  return x;\n"
           "}";
  }
  if (name == "cpu_is_amd")
    return "// Whether the CPU is an AMD one, for shapes that measure best on its caches (the blocks of large\n"
           "// transposes). Defining SIMDGEN_ASSUME_AMD_CPU as 0 or 1 when compiling fixes the answer.\n"
           "static inline int simdgen_cpu_is_amd(void) {\n"
           "#if defined(SIMDGEN_ASSUME_AMD_CPU)\n"
           "  return SIMDGEN_ASSUME_AMD_CPU;\n"
           "#elif defined(__x86_64__) || defined(__i386__)\n"
           "  __builtin_cpu_init();  // returns at once after the first call; needed before constructors run\n"
           "  return __builtin_cpu_is(\"amd\");\n"
           "#else\n"
           "  return 0;\n"
           "#endif\n"
           "}";
  if (name == "cpu_splits_512")
    return "// Whether the CPU runs 512-bit operations as two 256-bit halves (AMD family 19h, Zen 4: a 512-bit\n"
           "// store takes two cycles, a 512-bit shuffle issues once per cycle and 256-bit ones twice): the\n"
           "// dispatcher then prefers the 256-bit variant of kernels bound by shuffles and stores in L1.\n"
           "// Defining SIMDGEN_ASSUME_SPLIT_512 as 0 or 1 when compiling fixes the answer.\n"
           "static inline int simdgen_cpu_splits_512(void) {\n"
           "#if defined(SIMDGEN_ASSUME_SPLIT_512)\n"
           "  return SIMDGEN_ASSUME_SPLIT_512;\n"
           "#elif defined(__x86_64__) || defined(__i386__)\n"
           "  __builtin_cpu_init();\n"
           "  return __builtin_cpu_is(\"amdfam19h\");\n"
           "#else\n"
           "  return 0;\n"
           "#endif\n"
           "}";
  throw std::logic_error("no file-level helper '" + name + "' in this lowering module");
}

std::string IsaLowering::vscaleDeclaration() const {
  throw std::logic_error("this lowering module has no scalable vectors");
}

std::string IsaLowering::firstLaneActive(const std::string&, ir::VecType) const { return ""; }

bool isOneLaneOp(const OpWriter& w) {
  if (w.s.type.lanes != 1) return false;
  for (const auto& a : w.s.args)
    if (w.typeOf(a).lanes != 1) return false;
  return w.s.op != ir::OpKind::LocateEqual;
}

const IsaLowering* loweringFor(LoweringModule module) {
  switch (module) {
    case LoweringModule::scalar: return &scalarLowering();
    case LoweringModule::x86: return &x86Lowering();
    case LoweringModule::neon: return &neonLowering();
    case LoweringModule::sve: return &sveLowering();
    case LoweringModule::none: break;
  }
  return nullptr;
}

const IsaLowering& loweringFor(const Target& target) {
  if (const IsaLowering* m = loweringFor(target.module)) return *m;
  throw std::logic_error("target " + target.spelling + " has no lowering module (it exists for plan simulation only)");
}

bool inlinePredicate(const ir::Stmt& def, LowerContext& cx) {
  if (!def.type.predicate || !def.declare || !loweringFor(cx.target).inlinesPredicate(def, cx)) return false;
  cx.types[def.dst] = def.type;
  cx.inlined[def.dst] = &def;
  return true;
}

bool isLaneRangePredicate(const ir::Stmt& def, const LowerContext& cx) {
  return def.op == ir::OpKind::WhileLt || (def.op == ir::OpKind::Not && cx.inlined.count(def.args[0]));
}

std::string predicateExpr(const std::string& p, LowerContext& cx, const PredicateSpelling& spelling) {
  const auto it = cx.inlined.find(p);
  if (it == cx.inlined.end()) return p;
  const ir::Stmt& def = *it->second;
  if (cx.predicateVariables.count(&def)) return p;
  ++cx.predicateWritten[&def];
  if (def.op == ir::OpKind::WhileLt) return spelling.whileLt(def, cx);
  return spelling.negate(def, predicateExpr(def.args[0], cx, spelling), cx);
}

std::optional<LaneRange> laneRange(const std::string& p, const LowerContext& cx) {
  const auto it = cx.inlined.find(p);
  if (it == cx.inlined.end()) return std::nullopt;
  const ir::Stmt& def = *it->second;
  if (def.op == ir::OpKind::WhileLt) return LaneRange{activeCount(def), false, def.partialOnly};
  if (auto inner = laneRange(def.args[0], cx); inner && !inner->last)
    return LaneRange{(ir::Index::constant(def.type.lanes) - inner->count).simplified(), true, inner->partial};
  return std::nullopt;
}

std::string scatteredLanesLoop(const OpWriter& w, const std::string& lanes, const std::string& active, const std::string& cast) {
  const ir::Stmt& s = w.s;
  return "for (int64_t lane = 0; lane < " + lanes + "; ++lane) " + (active.empty() ? "" : "if (" + active + ") ") +
         w.cx.plan.outputTensor(s.tensor).name + "[" + s.index.str() + " + lane * " + s.stride.str() + "] = " + cast + "scattered[lane];";
}

std::vector<std::string> lowerOp(const ir::Stmt& s, LowerContext& cx) {
  OpWriter w{s, cx, loweringFor(cx.target), {}};
  w.isa.lower(w);
  if (s.op != ir::OpKind::Store && s.op != ir::OpKind::ScatterRows) {
    cx.types[s.dst] = s.type;
    cx.inlined.erase(s.dst);  // a variable now, whatever an earlier block called by this name
  }
  return w.out;
}

}  // namespace simdgen::emit
