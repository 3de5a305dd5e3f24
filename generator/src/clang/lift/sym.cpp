// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/sym.h"

#include <utility>

namespace simdgen::lift {

bool preservesValues(const ScalarType& from, const ScalarType& to) {
  if (from.dtype.empty() || to.dtype.empty()) return false;
  if (from.isFloat || to.isFloat) return from.isFloat && to.isFloat && to.bits >= from.bits;
  if (from.isSigned == to.isSigned) return to.bits >= from.bits;
  return !from.isSigned && to.isSigned && to.bits > from.bits;  // uint8 -> int16 and wider
}

SymPtr makeSym(Sym s) {
  for (const SymPtr& a : s.args) s.uninitialized = s.uninitialized || a->uninitialized;
  return std::make_shared<const Sym>(std::move(s));
}

bool sameSym(const SymPtr& a, const SymPtr& b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind || a->op != b->op || a->name != b->name || a->offset != b->offset || a->stride != b->stride ||
      !(a->type == b->type) || a->args.size() != b->args.size())
    return false;
  for (size_t i = 0; i < a->args.size(); ++i)
    if (!sameSym(a->args[i], b->args[i])) return false;
  return true;
}

const Sym& stripCasts(const Sym& s) { return s.kind == Sym::Kind::cast ? stripCasts(*s.args[0]) : s; }

bool uses(const Sym& s, Sym::Kind kind, const std::string& name) {
  if (s.kind == kind && (name.empty() || s.name == name)) return true;
  for (const auto& a : s.args)
    if (uses(*a, kind, name)) return true;
  return false;
}

bool isCarried(const Sym& s, const std::string& name) {
  const Sym& b = stripCasts(s);
  return b.kind == Sym::Kind::carried && b.name == name;
}

bool chainPreservesValues(const Sym& s) {
  if (s.kind != Sym::Kind::cast) return true;
  const Sym& inner = *s.args[0];
  return preservesValues(inner.type, s.type) && chainPreservesValues(inner);
}

std::string flipRelation(const std::string& rel) {
  if (rel == "<") return ">";
  if (rel == "<=") return ">=";
  if (rel == ">") return "<";
  return "<=";
}
std::string negateRelation(const std::string& rel) {
  if (rel == "<") return ">=";
  if (rel == "<=") return ">";
  if (rel == ">") return "<=";
  return "<";
}

Select normalizedSelect(const Sym& s) {
  Select r{s.args[0].get(), s.args[1].get(), s.args[2].get()};
  for (;;) {
    if (r.cond->kind == Sym::Kind::cast &&
        (stripCasts(*r.cond).kind == Sym::Kind::compare || stripCasts(*r.cond).kind == Sym::Kind::logical_not)) {
      r.cond = &stripCasts(*r.cond);
    } else if (r.cond->kind == Sym::Kind::logical_not) {
      r.cond = r.cond->args[0].get();
      std::swap(r.ifTrue, r.ifFalse);
    } else {
      break;
    }
  }
  return r;
}

std::string render(const Sym& s) {
  switch (s.kind) {
    case Sym::Kind::load: {
      // (w + r * n)[j]: the base with its row offset, indexed by the loop's own counter.
      const bool word = s.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
      const std::string i = s.op.empty() ? "i" : s.op;
      return (word ? s.name : "(" + s.name + ")") + "[" + i + (s.stride.empty() ? "" : " * " + s.stride) +
             (s.offset > 0 ? " + " + std::to_string(s.offset) : s.offset < 0 ? " - " + std::to_string(-s.offset) : "") + "]";
    }
    case Sym::Kind::induction: return s.name.empty() ? "i" : s.name;
    case Sym::Kind::carried:
    case Sym::Kind::invariant:
    case Sym::Kind::constant: return s.name;
    case Sym::Kind::cast: return "(" + s.type.spelling + ")" + render(*s.args[0]);
    case Sym::Kind::binary:
    case Sym::Kind::compare: return "(" + render(*s.args[0]) + " " + s.op + " " + render(*s.args[1]) + ")";
    case Sym::Kind::logical_not: return "!" + render(*s.args[0]);
    case Sym::Kind::select:
      return "(" + render(*s.args[0]) + " ? " + render(*s.args[1]) + " : " + render(*s.args[2]) + ")";
    case Sym::Kind::negate: return "-" + render(*s.args[0]);
    case Sym::Kind::bit_not: return "~" + render(*s.args[0]);
    case Sym::Kind::fmax: return s.op + "(" + render(*s.args[0]) + ", " + render(*s.args[1]) + ")";
    case Sym::Kind::fma: return "fma(" + render(*s.args[0]) + ", " + render(*s.args[1]) + ", " + render(*s.args[2]) + ")";
    case Sym::Kind::math: return s.op + "(" + render(*s.args[0]) + ")";
  }
  return "?";
}

}  // namespace simdgen::lift
