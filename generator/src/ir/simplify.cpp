// SPDX-License-Identifier: Apache-2.0
#include "ir/simplify.h"

#include <algorithm>
#include <map>
#include <optional>

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

// Walks a block in order, tracking loop variables whose value is known after their loop.
void simplify(Block& block, Known known) {
  Block out;
  for (Stmt& s : block) {
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
      simplify(s.body, known);
      // The value after the loop (unknown for scalable steps and tail-covering loops).
      if (bounded && !s.coversTail) known[s.var] = afterLoop(l, h, st);
      else known.erase(s.var);
    } else if (s.kind == Stmt::Kind::IfValues) {
      simplify(s.body, known);
    } else if (s.kind == Stmt::Kind::If) {
      auto l = evalKnown(s.cmpLhs, known), r = evalKnown(s.cmpRhs, known);
      if (l && r && !(*l < *r)) continue;
      simplify(s.body, known);
      if (l && r) {  // always true: its body belongs to the enclosing block
        for (Stmt& inner : s.body) out.push_back(std::move(inner));
        continue;
      }
    }
    out.push_back(std::move(s));
  }
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
