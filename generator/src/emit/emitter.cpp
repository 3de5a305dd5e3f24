// SPDX-License-Identifier: Apache-2.0
#include "emit/emitter.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <string_view>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/text.h"
#include "emit/load_folding.h"
#include "emit/lowering.h"
#include "emit/parallel_entry.h"
#include "plan/family.h"
#include "sim/lane_sim.h"
#include "targets/all_targets.h"

namespace simdgen::emit {

namespace mst = kainjow::mustache;

namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error(p.string() + ": cannot read template");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Walks the plan and writes C++ statements.
struct BodyWriter {
  LowerContext& cx;
  std::vector<std::string> lines;
  bool laneCounts = false;  // spell control-flow indices as the ISA's lane counts (idx)
  std::set<const ir::Stmt*> declaredPredicates = {};  // inlined predicates to declare as variables

  // An index of the control flow (loop bounds and steps, lets, conditions), spelt by the ISA
  // when laneCounts: SVE counts `4 * vscale` as `(int64_t)svcntw()`. Addresses inside ops keep
  // `vscale`: spelt as lane counts there, GCC 12 switched the f32 row sum's loads to
  // `[x, #1, mul vl]` with a second induction variable, one instruction more per iteration.
  std::string idx(const ir::Index& x) const {
    const std::string text = x.str();
    if (!laneCounts) return text;
    int unit = 2;  // lanes per vscale of the plan's narrowest element
    for (const ir::Tensor& t : cx.plan.tensors) unit = std::max(unit, 128 / bitsOf(t.dtype));
    return loweringFor(cx.target).spellLaneCounts(text, unit);
  }

  void appendLaneTable(const ir::Stmt& s) {
    lines.push_back("// Lane table (row in each lane of the first vector after each stage):");
    for (const auto& t : sim::foldLaneTable(s.network)) lines.push_back("//   " + t);
  }

  // A loop covering its tail with `pred = whilelt(var, hi)` first in its body, on an ISA that
  // branches on a predicate's first lane: the seed-001 loop with whilelt at the bottom,
  //   var = lo; pred = whilelt(var, hi); while (first lane of pred) { body; var += step; pred = whilelt(var, hi); }
  // (lane 0 is active exactly when var < hi), which compilers turn into one whilelt and a branch
  // on its flags per iteration. Returns false (writing nothing) for any other loop.
  bool governedLoop(const ir::Stmt& loop) {
    if (!loop.coversTail || loop.body.empty()) return false;
    const ir::Stmt& w = loop.body.front();
    if (w.kind != ir::Stmt::Kind::Op || w.op != ir::OpKind::WhileLt || !w.declare || w.partialOnly) return false;
    const ir::Index var = ir::Index::symbol(loop.var);
    const ir::Index lanes = w.type.scalable ? ir::Index::vscaled(w.type.lanes) : ir::Index::constant(w.type.lanes);
    if ((w.lo - var).simplified().str() != "0" || (w.hi - loop.hi).simplified().str() != "0" ||
        (loop.step - lanes).simplified().str() != "0")
      return false;
    const std::string test = loweringFor(cx.target).firstLaneActive(w.dst, w.type);
    if (test.empty()) return false;
    // do-while, whilelt at the bottom and the branch on its flags (6 instructions a vector for
    // B = A * 2 on SVE, no test before the loop): when the extent is 0 the body runs once with
    // no lane active, which reads and writes nothing, as in any partial last iteration.
    lines.push_back("{");
    if (!loop.continues) lines.push_back("int64_t " + loop.var + " = " + idx(loop.lo) + ";");
    for (auto& l : lowerOp(w, cx)) lines.push_back(l);
    lines.push_back("do {");
    block(ir::Block(loop.body.begin() + 1, loop.body.end()));
    lines.push_back(loop.var + " += " + idx(loop.step) + ";");
    ir::Stmt again = w;
    again.declare = false;
    for (auto& l : lowerOp(again, cx)) lines.push_back(l);
    lines.push_back("} while (" + test + ");");
    lines.push_back("}");
    return true;
  }

  void block(const ir::Block& b) {
    // Index variables this block (one C++ scope) has declared: a later loop or let of the same
    // name assigns it (the copies of a loop nest inside an unrolled reduction step: each copy's
    // inner loops start their variable again).
    std::set<std::string> declared;
    auto declare = [&](const std::string& var) { return declared.insert(var).second ? "int64_t " + var : var; };
    for (size_t k = 0; k < b.size(); ++k) {
      const ir::Stmt& s = b[k];
      switch (s.kind) {
        case ir::Stmt::Kind::Comment: lines.push_back("// " + s.text); break;
        case ir::Stmt::Kind::Op:
          if (predicateInlinable(b, k) && inlinePredicate(s, cx)) {
            if (declaredPredicates.count(&s))
              if (std::string decl = loweringFor(cx.target).predicateDeclaration(s, cx); !decl.empty()) {
                lines.push_back(decl);
                cx.predicateVariables.insert(&s);
              }
            break;
          }
          if (foldable(b, k)) {
            const std::vector<std::string> load = lowerOp(s, cx), consumer = lowerOp(b[k + 1], cx);
            if (auto folded = foldLoad(load, s.dst, consumer)) {
              lines.insert(lines.end(), folded->begin(), folded->end());
            } else {
              lines.insert(lines.end(), load.begin(), load.end());
              lines.insert(lines.end(), consumer.begin(), consumer.end());
            }
            ++k;  // the consumer is written
            if (b[k].op == ir::OpKind::ReduceRows) appendLaneTable(b[k]);
            break;
          }
          for (auto& l : lowerOp(s, cx)) lines.push_back(l);
          if (s.op == ir::OpKind::ReduceRows) appendLaneTable(s);
          break;
        case ir::Stmt::Kind::For: {
          if (!s.text.empty()) lines.push_back("// " + s.text);
          if (governedLoop(s)) break;
          if (!s.continues) lines.push_back(declare(s.var) + " = " + idx(s.lo) + ";");
          const bool one = s.step.constantValue() == 1;
          const std::string step = one ? "++" + s.var : s.var + " += " + idx(s.step);
          // Whole steps only. A scalable step is written `j <= hi - step` so the bound is loop-invariant
          // (GCC otherwise keeps j and j + step alive: one more instruction per iteration on SVE).
          // A constant step keeps `j + step <= hi`: compilers fold it into the address arithmetic,
          // and the invariant form measured ~5% slower on AVX-512 row sums (docs/benchmarks.md).
          // Extents are non-negative int64, so neither form can overflow.
          const bool constantStep = s.step.constantValue().has_value();
          const std::string cond = one || s.coversTail ? s.var + " < " + idx(s.hi)
                                   : constantStep      ? s.var + " + " + idx(s.step) + " <= " + idx(s.hi)
                                                       : s.var + " <= " + idx(s.hi - s.step);
          lines.push_back("for (; " + cond + "; " + step + ") {");
          block(s.body);
          lines.push_back("}");
          break;
        }
        case ir::Stmt::Kind::Let: {
          std::string value = s.letMin   ? idx(s.lo) + " < " + idx(s.hi) + " ? " + idx(s.lo) + " : " + idx(s.hi)
                              : s.letMax ? idx(s.lo) + " > " + idx(s.hi) + " ? " + idx(s.lo) + " : " + idx(s.hi)
                                         : idx(s.lo);
          if (s.roundDownTo) value = "(" + value + ") / " + std::to_string(s.roundDownTo) + " * " + std::to_string(s.roundDownTo);
          if (!s.cpuTrait.empty()) {
            cx.helpers.insert("cpu_" + s.cpuTrait);
            value = "simdgen_cpu_" + s.cpuTrait + "() ? " + idx(s.lo) + " : " + idx(s.hi);
          }
          if (s.opaque) {
            cx.helpers.insert("opaque");
            value = "simdgen_opaque(" + value + ")";
          }
          if (s.alignBytes)  // 1 when the element's address is a multiple of alignBytes
            value = "(uintptr_t)(" + s.tensor + (s.lo.constantValue() == 0 ? "" : " + " + idx(s.lo)) + ") % " + std::to_string(s.alignBytes) + " == 0";
          lines.push_back(declare(s.var) + " = " + value + ";");
          break;
        }
        case ir::Stmt::Kind::IfValues:
          if (!s.text.empty()) lines.push_back("// " + s.text);
          lines.push_back("if (" + s.args[0] + " " + std::string(ir::symbolOf(s.cmp)) + " " + s.args[1] + ") {");
          block(s.body);
          lines.push_back("}");
          break;
        case ir::Stmt::Kind::If:
          if (!s.text.empty()) lines.push_back("// " + s.text);
          // A constant on the left reads better on the right: `n > 15`, not `15 < n`.
          lines.push_back(s.cmp == ir::Cmp::lt && s.cmpLhs.constantValue() && !s.cmpRhs.constantValue()
                              ? "if (" + idx(s.cmpRhs) + " > " + idx(s.cmpLhs) + ") {"
                              : "if (" + idx(s.cmpLhs) + " " + std::string(ir::symbolOf(s.cmp)) + " " + idx(s.cmpRhs) + ") {");
          block(s.body);
          lines.push_back("}");
          break;
      }
    }
  }
};

// Whether code reads a name: a whole word outside comments.
// A plain search: std::regex made this a sixth of the generator's time (more at -O0).
bool readsName(const std::vector<std::string>& code, const std::string& name) {
  auto wordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto lineReads = [&](std::string_view line) {
    line = line.substr(0, line.find("//"));
    for (size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
      const size_t end = at + name.size();
      if ((at == 0 || !wordChar(line[at - 1])) && (end == line.size() || !wordChar(line[end]))) return true;
    }
    return false;
  };
  return std::any_of(code.begin(), code.end(), lineReads);
}

// Whether code reads the variable `vscale`.
bool usesVscale(const std::vector<std::string>& text) { return readsName(text, "vscale"); }

// A variant's statements: its constants, the hoisted prelude the lowering asked for, the body.
std::vector<std::string> lowerBody(LowerContext& cx) {
  // Scalable plans: loop steps and bounds are spelt as lane counts (svcntw) only when that
  // leaves no `vscale` in the code, so the variant drops its declaration (GCC 12: cntb, lsr, lsl
  // per call). Where ops still read vscale, one spelling throughout lets GCC share the value
  // (both spellings at once cost the i8 row sum a cntb more on its tail path).
  bool laneCounts = false;
  // Inlined predicates whose expression the body writes more than once are declared once instead.
  std::set<const ir::Stmt*> declared;
  {
    LowerContext trial = cx;
    BodyWriter t{trial, {}, false};
    t.block(cx.plan.body);
    for (const auto& [def, count] : trial.predicateWritten)
      if (count > 1) declared.insert(def);
  }
  if (cx.plan.scalable) {
    LowerContext trial = cx;
    BodyWriter t{trial, {}, true, declared};
    t.block(cx.plan.body);
    laneCounts = !usesVscale(t.lines) && !usesVscale(trial.prelude);
  }
  BodyWriter w{cx, {}, laneCounts, declared};
  w.block(cx.plan.body);
  auto codeUses = [&](const std::string& name) { return readsName(w.lines, name) || readsName(cx.prelude, name); };
  std::vector<std::string> lines;
  // Static extents and scratch tiles the code never reads (a one-column matrix copied by a
  // vector loop) are left out: each would be an unused variable.
  for (const auto& [name, value] : cx.plan.constants)
    if (codeUses(name)) lines.push_back("constexpr int64_t " + name + " = " + std::to_string(value) + ";");
  // Declared only where code uses it: a plan whose steps are all constants (one predicated
  // vector) or lane counts would leave it unused, a -Wunused-variable warning.
  if (cx.plan.scalable && (usesVscale(w.lines) || usesVscale(cx.prelude)))
    lines.push_back(loweringFor(cx.target).vscaleDeclaration());
  // Scratch arrays live on the stack, or on the heap for the call where the user defines
  // SIMDGEN_SCRATCH_ON_HEAP (threads with small stacks: a panel takes up to 160 KiB). The heap
  // copies are freed by the last statements, not by __attribute__((cleanup)): a cleanup is an
  // exception region, and its landing pads (intrinsics count as calls that may throw) would need
  // the C++ runtime (__gxx_personality_v0, _Unwind_Resume), which a C program does not link.
  // Nothing returns early past an allocation (checkScratchFreed).
  std::vector<std::string> frees;
  for (const ir::Tensor& t : cx.plan.tensors) {
    if (!t.scratch || !codeUses(t.name)) continue;
    const std::string type(cTypeOf(t.dtype)), count = t.extents.at(0).str();
    lines.push_back("#if defined(SIMDGEN_SCRATCH_ON_HEAP)");
    lines.push_back(type + "* const " + t.name + " = (" + type + "*)simdgen_scratch_alloc(sizeof(" + type + ") * " +
                    count + ");");
    lines.push_back("#else");
    lines.push_back("alignas(64) " + type + " " + t.name + "[" + count + "];");
    lines.push_back("#endif");
    frees.insert(frees.begin(), "free(" + t.name + ");");
  }
  lines.insert(lines.end(), cx.prelude.begin(), cx.prelude.end());
  lines.insert(lines.end(), w.lines.begin(), w.lines.end());
  if (!frees.empty()) {
    lines.push_back("#if defined(SIMDGEN_SCRATCH_ON_HEAP)");
    lines.insert(lines.end(), frees.begin(), frees.end());
    lines.push_back("#endif");
  }
  // A parameter the variant never reads (a map input or param no output's expression uses) is
  // cast to void: the signature stays the spec's, without an unused-parameter warning.
  std::vector<std::string> unread;
  for (const ir::Param& p : cx.plan.params) {
    if (!readsName(lines, p.name))
      unread.push_back("(void)" + p.name + ";  // read by no output");
  }
  lines.insert(lines.begin(), unread.begin(), unread.end());
  return lines;
}

// A variant's heap scratch arrays are freed at its end: a `return` after their allocation would
// leak them (the statements are plain C, without destructors or cleanups; see lowerBody).
void checkScratchFreed(const std::vector<std::string>& lines, const std::string& name) {
  const auto alloc = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("simdgen_scratch_alloc(") != std::string::npos;
  });
  if (alloc != lines.end() && readsName(std::vector<std::string>(alloc, lines.end()), "return"))
    throw std::logic_error(name + ": returns after allocating scratch on the heap, which would leak it");
}

// The signature, from the plan's parameters: generator-owned names for the .cpp, the user's in
// the header (`publicNames`).
std::string params(const ir::Plan& plan, bool publicNames) {
  std::vector<std::string> p;
  for (const ir::Param& x : plan.params) {
    const std::string name = publicNames ? x.publicName : x.name;
    if (x.kind == ir::Param::Kind::extent) {
      p.push_back("int64_t " + name);
    } else if (x.kind == ir::Param::Kind::scalar) {
      p.push_back(std::string(cTypeOf(x.dtype)) + " " + name);
    } else {
      const ir::Tensor& t = plan.tensor(x.tensor);
      p.push_back(std::string(t.output ? "" : "const ") + std::string(cTypeOf(t.dtype)) + "* " + name);
    }
  }
  return join(p, ", ");
}

std::string args(const ir::Plan& plan) {
  std::vector<std::string> a;
  for (const ir::Param& x : plan.params) a.push_back(x.name);
  return join(a, ", ");
}

// Whether a plan multiplies and adds floats in separate ops, which GCC would fuse into one FMA
// (one rounding instead of two) unless told not to.
bool hasFusibleFloatOps(const ir::Block& block, bool& mul, bool& add) {
  for (const ir::Stmt& s : block) {
    if (s.kind != ir::Stmt::Kind::Op) hasFusibleFloatOps(s.body, mul, add);
    else if (isFloat(s.type.elem) && !s.type.predicate) {
      mul = mul || (s.op == ir::OpKind::Binary && s.rop == ReduceOp::mul);
      add = add || s.op == ir::OpKind::Sub || (s.op == ir::OpKind::Binary && s.rop == ReduceOp::add);
    }
  }
  return mul && add;
}
bool hasFusibleFloatOps(const ir::Plan& plan) {
  bool mul = false, add = false;
  return hasFusibleFloatOps(plan.body, mul, add);
}

// `text` under an include guard named after `key`: a unity build (several generated .cpp files in
// one translation unit) then defines each static helper once.
std::string definedOnce(const std::string& key, const std::string& text) {
  if (text.empty()) return text;
  std::string macro;
  for (char ch : key) macro += std::isalnum(static_cast<unsigned char>(ch)) ? char(std::toupper(static_cast<unsigned char>(ch))) : '_';
  return "#ifndef " + macro + "\n#define " + macro + "\n" + text + "\n#endif";
}

// What the templates need per architecture: the modules' preambles and file-level helpers, and
// the dispatcher's groups (each guarded, its variants best first; the portable scalar variant is
// the fallback outside every group).
void setArchitectureData(mst::data& data, const std::vector<Variant>& variants,
                         const std::map<const IsaLowering*, std::set<std::string>>& helpers) {
  // Guarded modules in variant order, grouped by their guard (NEON and SVE share AArch64's).
  std::vector<std::string> guards;
  std::map<std::string, std::vector<const IsaLowering*>> modulesOf;
  for (const Variant& v : variants) {
    const IsaLowering* m = &loweringFor(v.target);
    const std::string guard = m->archGuard();
    if (guard.empty()) continue;
    if (!modulesOf.count(guard)) guards.push_back(guard);
    auto& ms = modulesOf[guard];
    if (std::find(ms.begin(), ms.end(), m) == ms.end()) ms.push_back(m);
  }
  mst::data preambles{mst::data::type::list}, helperList{mst::data::type::list}, groups{mst::data::type::list};
  std::set<std::string> written;  // guard + text: each file-level text once per guard
  auto addText = [&](mst::data& list, const std::string& guard, const std::string& text) {
    if (text.empty() || !written.insert(guard + "\n" + text).second) return;
    mst::data p;
    p.set("guard", guard);
    p.set("guarded", mst::data(!guard.empty()));
    p.set("text", text);
    list.push_back(p);
  };
  // The portable module's helpers (the scalar variant's), compiled everywhere.
  for (const Variant& v : variants)
    if (const IsaLowering* m = &loweringFor(v.target); m->archGuard().empty())
      if (auto it = helpers.find(m); it != helpers.end())
        for (const std::string& name : it->second) addText(helperList, "", definedOnce("SIMDGEN_HELPER_" + name, m->fileHelper(name)));
  for (const std::string& guard : guards) {
    std::string init, preamble;  // one block per guard: the modules' headers, then their CPU support
    for (const IsaLowering* m : modulesOf[guard])
      for (const std::string& text : {m->preamble(), definedOnce("SIMDGEN_CPU_SUPPORT", m->cpuSupport())})
        if (!text.empty() && preamble.find(text) == std::string::npos) preamble.append(preamble.empty() ? "" : "\n").append(text);
    addText(preambles, guard, preamble);
    for (const IsaLowering* m : modulesOf[guard]) {
      if (auto it = helpers.find(m); it != helpers.end())
        for (const std::string& name : it->second) addText(helperList, guard, definedOnce("SIMDGEN_HELPER_" + name, m->fileHelper(name)));
      if (!m->dispatchInit().empty() && init.find(m->dispatchInit()) == std::string::npos)
        init.append(init.empty() ? "" : "\n").append(m->dispatchInit());
    }
    mst::data group, list{mst::data::type::list};
    group.set("guard", guard);
    group.set("init", init);
    group.set("has_init", mst::data(!init.empty()));
    group.set("directive", groups.is_empty_list() ? "if" : "elif");
    for (const Variant& v : variants) {  // best first
      if (loweringFor(v.target).archGuard() != guard) continue;
      mst::data item;
      item.set("suffix", v.target.suffix);
      item.set("spelling", v.target.spelling);  // SIMDGEN_VARIANT takes either
      item.set("cpu_check", v.target.cpuCheck.empty() ? "true" : v.target.cpuCheck);  // e.g. NEON: every AArch64 CPU
      // What the automatic choice asks beyond support (SIMDGEN_VARIANT asks support only).
      item.set("select_check", (v.target.cpuCheck.empty() ? "true" : v.target.cpuCheck) +
                                   (v.plan.yieldsOnSplit512 ? " && !simdgen_cpu_splits_512()" : ""));
      list.push_back(item);
    }
    group.set("variants", list);
    groups.push_back(group);
  }
  data.set("preambles", preambles);
  data.set("helpers", helperList);
  data.set("arch_groups", groups);
  data.set("has_arch_groups", mst::data(!guards.empty()));
}

// Every name SIMDGEN_VARIANT may take on each architecture (suffixes and spec spellings of every
// registry target, whether or not this kernel has the variant), so that the dispatcher can tell a
// misspelt name from a variant this kernel lacks. One space-separated list per architecture guard.
void setKnownNames(mst::data& data) {
  std::vector<std::string> guards;
  std::map<std::string, std::string> names;
  for (const Target& t : allTargets()) {
    const IsaLowering* m = loweringFor(t.module);
    const std::string guard = m ? m->archGuard() : "";
    if (guard.empty()) continue;  // scalar: known everywhere
    if (!names.count(guard)) guards.push_back(guard);
    std::string& list = names[guard];
    list += " " + t.suffix;
    if (t.spelling != t.suffix) list += " " + t.spelling;
  }
  mst::data arches{mst::data::type::list};
  for (const std::string& guard : guards) {
    mst::data a;
    a.set("directive", arches.is_empty_list() ? "if" : "elif");
    a.set("guard", guard);
    a.set("names", names[guard]);
    arches.push_back(a);
  }
  data.set("known_arches", arches);
  data.set("has_known_arches", mst::data(!guards.empty()));
}

}  // namespace

Templates Templates::load(const std::filesystem::path& dir) {
  return {readFile(dir / "kernel.h.mustache"), readFile(dir / "kernel.cpp.mustache"), readFile(dir / ".clang-format")};
}

std::string specHash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

GeneratedKernel generate(const KernelSpec& spec, const Templates& templates, const std::string& specRef,
                         const FileHeader& header) {
  GeneratedKernel g;
  g.name = spec.name;
  std::vector<Target> targets;
  for (const auto& req : spec.targets) targets.push_back(makeTarget(req));
  std::stable_sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) { return a.priority > b.priority; });

  // File-level helpers the variants need, per lowering module (std::set: a stable order).
  std::map<const IsaLowering*, std::set<std::string>> helpers;
  std::vector<std::pair<std::string, size_t>> dropped;  // a variant not emitted, the slot whose code it has
  for (const Target& t : targets) {
    Variant v{t, buildPlan(spec, t), "", {}};
    LowerContext cx{t, v.plan, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
    std::vector<std::string> lines = lowerBody(cx);
    if (!cx.scalarFallbackWhen.empty()) {
      std::string when;
      for (const std::string& c : cx.scalarFallbackWhen) when += (when.empty() ? "" : " || ") + c;
      const std::vector<std::string> fallback = {"// Gathers use 32-bit lane offsets: larger strides take the scalar variant.",
                                                 "if (" + when + ") {", spec.name + "_scalar(" + args(v.plan) + ");",
                                                 "return;", "}"};
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(v.plan.constants.size()), fallback.begin(), fallback.end());
    }
    checkScratchFreed(lines, spec.name + "_" + t.suffix);
    v.body = join(lines, "\n");
    helpers[&loweringFor(t)].insert(cx.helpers.begin(), cx.helpers.end());
    if (v.plan.yieldsOnSplit512) helpers[&loweringFor(t)].insert("cpu_splits_512");  // the dispatcher's test
    v.notes = v.plan.summary;
    for (const auto& i : cx.instructions) v.notes.push_back("uses " + i);
    // A feature variant whose code equals a plainer variant's adds nothing but a CPU requirement:
    // targets come best first, so keep the later (plainer) one in the earlier one's place.
    auto same = std::find_if(g.variants.begin(), g.variants.end(), [&](const Variant& o) { return o.body == v.body; });
    if (same != g.variants.end()) {
      dropped.push_back({same->target.spelling, size_t(same - g.variants.begin())});
      *same = std::move(v);
    } else {
      g.variants.push_back(std::move(v));
    }
  }
  // Named after the variant that finally holds the slot (a chain of drops ends at the plainest).
  for (const auto& [name, slot] : dropped)
    g.dropped.push_back(name + ": identical to " + g.variants[slot].target.spelling + " for this kernel, not emitted");
  // A plainer variant that took a dropped one's place goes back to its own rank (best first).
  std::stable_sort(g.variants.begin(), g.variants.end(),
                   [](const Variant& a, const Variant& b) { return a.target.priority > b.target.priority; });

  mst::data data;
  // The user's tags first, where license scanners (REUSE, ScanCode) look; the regenerate command
  // repeats the options so that it reproduces the file byte for byte.
  auto shellQuoted = [](const std::string& v) {
    std::string q = "'";
    for (char c : v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string tags, options;
  if (!header.spdx.empty()) {
    tags += "// SPDX-License-Identifier: " + header.spdx + "\n";
    options += " --spdx " + shellQuoted(header.spdx);
  }
  if (!header.copyright.empty()) {
    tags += "// SPDX-FileCopyrightText: " + header.copyright + "\n";
    options += " --copyright " + shellQuoted(header.copyright);
  }
  const std::string provenance =
      tags + "// Generated by simdgen " SIMDGEN_VERSION " from " + specRef + " (spec fnv1a64 " + specHash(spec.text) + ").\n"
      "// Do not edit: regenerate with `simdgen generate" + options + " " + specRef + " -o <this directory>`.\n"
      "// simdgen's license (Apache-2.0) does not cover this output: it is yours, under your own terms.";
  data.set("provenance", provenance);
  data.set("name", spec.name);
  data.set("exact_rounding", mst::data(std::any_of(g.variants.begin(), g.variants.end(),
                                                   [](const Variant& v) { return hasFusibleFloatOps(v.plan); })));
  data.set("no_loop_vectorizer", mst::data(std::any_of(g.variants.begin(), g.variants.end(),
                                                      [](const Variant& v) { return v.plan.noCompilerLoopVectorizer; })));
  data.set("no_loop_header_copies", mst::data(std::any_of(g.variants.begin(), g.variants.end(),
                                                         [](const Variant& v) { return v.plan.noLoopHeaderCopies; })));
  data.set("scratch_on_heap", mst::data(std::any_of(g.variants.begin(), g.variants.end(), [](const Variant& v) {
             return std::any_of(v.plan.tensors.begin(), v.plan.tensors.end(), [](const ir::Tensor& t) { return t.scratch; });
           })));
  // Every variant shares the signature and docs; the last one is the plainest (scalar).
  const ir::Plan& plan = g.variants.back().plan;
  data.set("params", params(plan, false));
  data.set("public_params", params(plan, true));
  data.set("args", args(plan));
  data.set("api_doc", join(plan.apiDoc, "\n"));
  std::vector<ir::Companion> extra = plan.companions;
  if (spec.parallel) {
    auto entry = parallelEntry(plan, spec.name);
    if (auto* why = std::get_if<std::string>(&entry)) throw specErrorAt(spec, "/parallel", "parallel: " + *why);
    extra.push_back(std::get<ir::Companion>(entry));
    g.parallel = parallelSummary(plan, spec.name);
  }
  data.set("runner", runnerDeclaration());
  data.set("has_runner", mst::data(spec.parallel));
  mst::data companions{mst::data::type::list};
  for (const ir::Companion& c : extra) {
    mst::data item;
    item.set("doc", join(c.doc, "\n"));
    item.set("declaration", c.declaration);
    item.set("definition", c.definition);
    item.set("section", c.section);
    item.set("has_section", mst::data(!c.section.empty()));
    companions.push_back(item);
  }
  data.set("companions", companions);
  mst::data variants{mst::data::type::list};
  std::vector<std::string> summary{"Plan summary (`simdgen explain` prints the full plans):"};
  if (!plan.overview.empty()) summary.push_back("  " + plan.overview);
  for (const auto& d : g.dropped) summary.push_back("  " + d);
  if (!g.parallel.empty()) summary.push_back("  " + g.parallel);
  for (const Variant& v : g.variants) {
    mst::data item;
    item.set("suffix", v.target.suffix);
    item.set("attribute", v.target.attribute);
    item.set("has_attribute", mst::data(!v.target.attribute.empty()));
    const std::string guard = loweringFor(v.target).archGuard();
    item.set("guarded", mst::data(!guard.empty()));
    item.set("guard", guard);
    item.set("body", v.body);
    std::string comment = "// ---- " + v.target.spelling + (v.target.vectorBits ? " (" + std::to_string(v.target.vectorBits) + "-bit vectors)" : " (portable C++)") + "\n";
    for (const auto& n : v.notes) comment += "// " + n + "\n";
    item.set("comment", comment);
    item.set("cpu_check", v.target.cpuCheck);
    variants.push_back(item);
  }
  data.set("plan_summary", "// " + join(summary, "\n// "));
  data.set("variants", variants);
  setArchitectureData(data, g.variants, helpers);
  setKnownNames(data);

  for (auto [text, out] : {std::pair{&templates.header, &g.header}, std::pair{&templates.source, &g.source}}) {
    mst::mustache tmpl(*text);
    if (!tmpl.is_valid()) throw std::runtime_error("template error: " + tmpl.error_message());
    *out = tmpl.render(data);
  }
  return g;
}

EmittedFunction emitFunction(const ir::Plan& plan, const Target& target, const std::string& name) {
  const IsaLowering& isa = loweringFor(target);
  LowerContext cx{target, plan, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  const std::vector<std::string> lines = lowerBody(cx);
  if (!cx.scalarFallbackWhen.empty()) throw std::logic_error(name + ": a scalar fallback needs a whole kernel (generate())");
  checkScratchFreed(lines, name);
  EmittedFunction f;
  const std::string guard = isa.archGuard();
  f.guard = guard;
  f.preamble = isa.preamble();
  if (!isa.cpuSupport().empty()) f.helpers.push_back(isa.cpuSupport());
  for (const auto& h : cx.helpers) f.helpers.push_back(isa.fileHelper(h));
  if (!guard.empty()) f.function = "#if " + guard + "\n";
  if (!target.attribute.empty()) f.function += "__attribute__((target(\"" + target.attribute + "\")))\n";
  f.function += "void " + name + "(" + params(plan, false) + ") {\n" + join(lines, "\n") + "\n}\n";
  if (!guard.empty()) f.function += "#endif\n";
  return f;
}

}  // namespace simdgen::emit
