// SPDX-License-Identifier: Apache-2.0
// Lowering modules: one per ISA family (scalar C, x86 SSE/AVX2/AVX-512; NEON and SVE beside
// them), behind one interface that owns type names, op spellings, tails, the architecture guard,
// the headers and the file-level helpers. Nothing outside a lowering module spells an intrinsic.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "targets/target.h"

namespace simdgen::emit {

struct LowerContext {
  const Target& target;
  const ir::Plan& plan;
  std::map<std::string, ir::VecType> types;  // variables seen so far
  std::vector<std::string> prelude;          // statements hoisted to the top of the variant
  std::set<std::string> instructions;        // "vpdpbusd", ... for the generated comment
  std::set<std::string> helpers;             // file-level helpers the variant needs (see fileHelper)
  std::set<std::string> scalarFallbackWhen;  // conditions under which the variant calls the scalar one
  // Predicates the module writes at their uses instead of as variables (see inlinesPredicate):
  // name -> defining statement (owned by the plan).
  std::map<std::string, const ir::Stmt*> inlined;
  // How often each inlined predicate's definition was written out (a first pass counts), and
  // those the second pass declares once, at their definition, because one expression written at
  // every use (eight loads and stores of a tile's partial column) reads badly.
  std::map<const ir::Stmt*, int> predicateWritten;
  std::set<const ir::Stmt*> predicateVariables;
  // SVE: unpacked narrow values whose containers already hold the element extended by its
  // signedness (an extending load or gather defined them), so widening them is free.
  std::set<std::string> extendedContainers;
  // How many locals of each name the lowering declared for values assigned again (local()).
  std::map<std::string, int> locals;

  void hoist(const std::string& line);
  // The name of a local the lowering declares for op `s` (its mask, its staging array):
  // s.dst + suffix where the op declares its value, else (the value assigned again, perhaps in a
  // scope inside the first one's: the sums so far of a later block) s.dst + suffix + "_2", "_3",
  // ..., which shadow nothing (-Wshadow).
  std::string local(const ir::Stmt& s, const std::string& suffix);
};

class IsaLowering;

// The statements of one op, with the accessors every module needs.
struct OpWriter {
  const ir::Stmt& s;
  LowerContext& cx;
  const IsaLowering& isa;
  std::vector<std::string> out;

  const ir::Tensor& source() const { return cx.plan.tensor(s.tensor); }  // the tensor a load reads
  std::string src() const { return source().name; }
  std::string in(const ir::Index& idx) const { return src() + " + " + idx.str(); }
  std::string outp(const ir::Index& idx) const { return cx.plan.outputTensor(s.tensor).name + " + " + idx.str(); }
  ir::VecType typeOf(const std::string& v) const { return cx.types.at(v); }
  std::string decl() const;  // "T dst" when the op declares dst, else "dst"
  void assign(const std::string& expr) { out.push_back(decl() + " = " + expr + ";"); }
};

class IsaLowering {
 public:
  virtual ~IsaLowering() = default;
  // C++ type of a plan value of this ISA ("__m512i", "svfloat32_t", "__mmask16", "int32_t").
  virtual std::string typeName(ir::VecType t, const LowerContext& cx) const = 0;
  // Appends the statements of w.s to w.out. Throws std::logic_error when the op has no lowering.
  virtual void lower(OpWriter& w) const = 0;
  // Guard around this ISA's variants ("defined(__x86_64__)"); empty = compiled everywhere.
  virtual std::string archGuard() const { return ""; }
  // File-level text this ISA's variants need (headers, compiler workarounds), once per file.
  virtual std::string preamble() const { return ""; }
  // The definition of a helper named in LowerContext::helpers; the base class defines the ones
  // every module may use ("clamp_lanes").
  virtual std::string fileHelper(const std::string& name) const;
  // Whether predicate definition `def` is written at its uses (its expression in every consumer)
  // rather than as a variable; the emitter asks only where that is safe (nothing between the
  // definition and its uses changes what it reads). x86 does this for whilelt so that a
  // masked load can use the lane count directly (AVX2 has no byte masked load).
  virtual bool inlinesPredicate(const ir::Stmt& def, const LowerContext& cx) const;
  // The declaration of inlined predicate `def` as a variable of its own name ("const __mmask16
  // tail_lanes = ...;"), for the uses to read instead of its expression; "" where the module
  // cannot declare it (the uses then keep the expression).
  virtual std::string predicateDeclaration(const ir::Stmt& def, LowerContext& cx) const;
  // File-level code the CPU checks need (headers, a feature-bit reader), under archGuard();
  // part of preamble() and of every test that evaluates the checks.
  virtual std::string cpuSupport() const { return ""; }
  // Statement run once before the dispatcher tests this ISA's CPU checks.
  virtual std::string dispatchInit() const { return ""; }
  // Scalable plans: the declaration of `vscale` (vector bits / 128) at the top of a variant.
  virtual std::string vscaleDeclaration() const;
  // Scalable plans: an index of the control flow with its `k * vscale` terms spelt as this ISA
  // counts lanes (SVE: `(int64_t)svcntw()`); `unit` is the lanes per vscale of the plan's
  // narrowest element, the count to prefer.
  virtual std::string spellLaneCounts(const std::string& index, int unit) const {
    (void)unit;
    return index;
  }
  // The condition "lane 0 of predicate p is active", if this ISA can branch on it directly
  // (SVE: the flags whilelt sets). A loop that covers its tail with whilelt(i, n) at the top of its
  // body is then written with whilelt at the bottom and this test as its condition ("" = a
  // plain `for (; i < n; i += step)`).
  virtual std::string firstLaneActive(const std::string& p, ir::VecType type) const;
};

// Whether a vector module hands statement w.s to the scalar module: it and all its operands
// have one lane (LocateEqual, which searches with vectors, excepted).
bool isOneLaneOp(const OpWriter& w);

// The scalar middle of the piecewise prefix helpers (x86 AVX2 bytes, NEON), the same C for both:
// with `p` at the first byte and `bytes` < 16, loads the 8-byte piece (bytes & 8) into `lo` and
// the 4/2/1-byte pieces into `rest`; stores `rest` piecewise, switching to `highHalf` (the
// vector's upper 64 bits) after the 8-byte piece.
std::string prefixLoadPieces();
std::string prefixStorePieces(const std::string& highHalf);

// The module that lowers `target` (by its ISA, from the ISA registry).
const IsaLowering& loweringFor(const Target& target);
// The module of an ISA registry entry; nullptr for `none` (plan simulation only).
const IsaLowering* loweringFor(LoweringModule module);

// Records predicate definition `def` as written at its uses when the module wants that; the
// caller has checked it is safe (predicateInlinable). Returns whether it did.
bool inlinePredicate(const ir::Stmt& def, LowerContext& cx);

// The predicates the vector modules (x86, NEON) write at their uses: a whilelt, and the negation
// of a predicate so written.
bool isLaneRangePredicate(const ir::Stmt& def, const LowerContext& cx);
// How a module spells those two: whilelt(lo, hi), and not(`inner`) for the Not statement.
struct PredicateSpelling {
  std::string (*whileLt)(const ir::Stmt& def, LowerContext& cx);
  std::string (*negate)(const ir::Stmt& notDef, const std::string& inner, LowerContext& cx);
};
// The C expression of predicate `p`: its variable, or its inlined definition written out.
std::string predicateExpr(const std::string& p, LowerContext& cx, const PredicateSpelling& spelling);

// An inlined predicate whose active lanes are a range: the first `count` lanes (whilelt) or the
// last `count` (its negation). Unless `partial` (0 < count < lanes, promised by the plan), count
// may lie outside [0, lanes]: clamp before using it.
struct LaneRange {
  ir::Index count;
  bool last = false;
  bool partial = false;
};
std::optional<LaneRange> laneRange(const std::string& p, const LowerContext& cx);

// A strided store's (ScatterRows) last step, shared by the modules that stage the vector in a
// stack array `scattered`: each lane `lane` below `lanes` for which `active` holds ("" = every
// lane) written to its element, in lane order, converted by `cast` ("" = none).
std::string scatteredLanesLoop(const OpWriter& w, const std::string& lanes, const std::string& active, const std::string& cast = "");
// The number of lanes whilelt(lo, hi) makes active, before clamping to [0, lanes].
inline ir::Index activeCount(const ir::Stmt& whileLt) { return whileLt.hi - whileLt.lo; }

// C++ statements implementing one Op statement, by the target's module.
std::vector<std::string> lowerOp(const ir::Stmt& s, LowerContext& cx);

}  // namespace simdgen::emit
