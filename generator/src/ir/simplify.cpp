// SPDX-License-Identifier: Apache-2.0
#include "ir/simplify.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace simdgen::ir {

namespace {

using Known = std::map<std::string, int64_t>;

std::optional<int64_t> evalKnown(const Index& idx, const Known& known) {
  int64_t v = 0;
  for (const auto& t : idx.terms) {
    int64_t p = t.coef;
    for (const auto& s : t.symbols) {
      auto it = known.find(s);
      if (it == known.end()) return std::nullopt;
      p *= it->second;
    }
    v += p;
  }
  return v;
}

int64_t afterLoop(int64_t lo, int64_t hi, int64_t step) { return lo + std::max<int64_t>(0, hi - lo) / step * step; }

// Loop variables a block moves (its loops, at any depth).
void movedVars(const Block& block, std::set<std::string>& out) {
  for (const Stmt& s : block) {
    if (s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::Let) out.insert(s.var);
    movedVars(s.body, out);
  }
}

void simplifyInto(Block& in, Known& known, Block& out);

// A nested block that may run any number of times, or not at all: simplified with what is known
// before it; afterwards nothing is known of the loop variables it moves.
void simplifyNested(Block& body, Known& known, const Known& more = {}) {
  Known inside = known;
  inside.insert(more.begin(), more.end());
  Block out;
  simplifyInto(body, inside, out);
  body = std::move(out);
  std::set<std::string> moved;
  movedVars(body, moved);
  for (const std::string& v : moved) known.erase(v);
}

// Walks a block in order, tracking loop variables whose value is known after their loop.
void simplifyInto(Block& in, Known& known, Block& out) {
  for (Stmt& s : in) {
    if (s.kind == Stmt::Kind::For) {
      std::optional<int64_t> lo = evalKnown(s.lo, known);
      if (s.continues) {
        auto it = known.find(s.var);
        lo = it != known.end() ? std::optional<int64_t>(it->second) : std::nullopt;
      }
      const std::optional<int64_t> hi = evalKnown(s.hi, known);
      const std::optional<int64_t> step = evalKnown(s.step, known);  // unknown when scalable
      const bool bounded = lo.has_value() && hi.has_value() && step.has_value();
      const int64_t l = lo.value_or(0), h = hi.value_or(0), st = step.value_or(1);
      // A cleanup loop that cannot run goes; a first loop stays, it declares the variable.
      if (s.continues && bounded && (s.coversTail ? l >= h : l + st > h)) continue;
      // A loop that runs exactly once (a static extent within one block) has its variable known inside.
      const bool once = bounded && l < h && (s.coversTail ? h - l <= st : h - l < 2 * st);
      simplifyNested(s.body, known, once ? Known{{s.var, l}} : Known{});
      // The value after the loop (unknown for scalable steps and tail-covering loops).
      if (bounded && !s.coversTail) known[s.var] = afterLoop(l, h, st);
      else known.erase(s.var);
    } else if (s.kind == Stmt::Kind::Let) {
      // An address or the CPU's vendor: known at run time only.
      auto v = s.alignBytes || !s.cpuTrait.empty() ? std::nullopt : evalKnown(s.lo, known);
      if (v && s.roundDownTo) v = *v / s.roundDownTo * s.roundDownTo;
      if (v && (s.letMin || s.letMax)) {
        const auto h = evalKnown(s.hi, known);
        v = h ? std::optional<int64_t>(s.letMin ? std::min(*v, *h) : std::max(*v, *h)) : std::nullopt;
      }
      if (v) known[s.var] = *v;
      else known.erase(s.var);
    } else if (s.kind == Stmt::Kind::IfValues) {
      simplifyNested(s.body, known);
    } else if (s.kind == Stmt::Kind::If) {
      auto l = evalKnown(s.cmpLhs, known), r = evalKnown(s.cmpRhs, known);
      if (l && r && !holds(s.cmp, *l, *r)) continue;
      if (l && r) {  // always true: its body belongs to the enclosing block, in order
        simplifyInto(s.body, known, out);
        continue;
      }
      simplifyNested(s.body, known);
    }
    out.push_back(std::move(s));
  }
}

void simplify(Block& block, Known known) {
  Block out;
  simplifyInto(block, known, out);
  block = std::move(out);
}

}  // namespace

bool contains(const Block& block, OpKind k, bool predicatedOnly) {
  for (const Stmt& s : block)
    if ((s.kind == Stmt::Kind::Op && s.op == k && (!predicatedOnly || !s.pred.empty())) || contains(s.body, k, predicatedOnly))
      return true;
  return false;
}

void removeDeadLoops(Plan& plan) {
  Known known;
  for (const auto& [name, value] : plan.constants) known[name] = value;
  simplify(plan.body, known);
}

}  // namespace simdgen::ir
