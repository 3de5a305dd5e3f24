// SPDX-License-Identifier: Apache-2.0
#include "ir/simplify.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

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

namespace {

using Reads = std::unordered_map<std::string, int>;

void addReads(const Index& idx, Reads& reads) {
  for (const Term& t : idx.terms)
    for (const std::string& s : t.symbols) ++reads[s];
}

// The variables one statement reads itself (not its body's); an update's read of the variable
// it assigns is not counted, so an accumulator nothing else reads is dead.
void ownReads(const Stmt& s, Reads& reads) {
  for (const std::string& a : s.args)
    if (s.kind != Stmt::Kind::Op || a != s.dst) ++reads[a];
  if (!s.pred.empty()) ++reads[s.pred];
  if (!s.literal.empty()) ++reads[s.literal];  // a splat of a runtime scalar
  for (const Index* idx : {&s.index, &s.stride, &s.lo, &s.hi, &s.cmpLhs, &s.cmpRhs, &s.step}) addReads(*idx, reads);
  if (s.kind == Stmt::Kind::For && s.continues) ++reads[s.var];  // runs on from the value before it
}

bool sideEffects(const Stmt& s) { return s.kind == Stmt::Kind::Op && (s.op == OpKind::Store || s.op == OpKind::ScatterRows || s.op == OpKind::Fence); }

// The name a statement declares, when it is a value that may go unread.
const std::string* declaredValue(const Stmt& s) {
  if (s.kind == Stmt::Kind::Op && s.declare && !s.dst.empty() && !sideEffects(s)) return &s.dst;
  if (s.kind == Stmt::Kind::Let) return &s.var;
  return nullptr;
}

bool updates(const Stmt& s, const std::string& name) {
  return s.kind == Stmt::Kind::Op && !s.declare && s.dst == name && !sideEffects(s);
}

// Drops every update (an op assigning it without declaring it) of a dead name, at any depth.
void dropUpdates(Block& block, const std::string& name) {
  std::erase_if(block, [&](const Stmt& s) { return updates(s, name); });
  for (Stmt& s : block) dropUpdates(s.body, name);
}

// One pass over a block, last statement first: removes the values declared in it that nothing
// after them reads, adds what the block still reads to `reads`; returns whether it removed any.
bool removeUnread(Block& block, Reads& reads) {
  bool removed = false;
  Reads later;  // reads of the statements after the current one, bodies included
  std::vector<bool> dead(block.size(), false);
  for (size_t k = block.size(); k-- > 0;) {
    Stmt& s = block[k];
    Reads inner;
    removed |= removeUnread(s.body, inner);
    const std::string* name = declaredValue(s);
    if (name && !later.count(*name)) {
      dead[k] = true;
      for (size_t j = k + 1; j < block.size(); ++j) {
        if (updates(block[j], *name)) dead[j] = true;
        else dropUpdates(block[j].body, *name);
      }
      removed = true;
      continue;
    }
    ownReads(s, later);
    for (const auto& [v, n] : inner) later[v] += n;
  }
  Block kept;
  for (size_t k = 0; k < block.size(); ++k) {
    Stmt& s = block[k];
    const bool emptyIf = (s.kind == Stmt::Kind::If || s.kind == Stmt::Kind::IfValues) && s.body.empty();
    if (!dead[k] && !emptyIf) kept.push_back(std::move(s));
  }
  removed |= kept.size() != block.size();
  block = std::move(kept);
  for (const auto& [v, n] : later) reads[v] += n;
  return removed;
}

}  // namespace

void removeDeadValues(Plan& plan) {
  for (bool again = true; again;) {
    Reads reads;
    again = removeUnread(plan.body, reads);
  }
}

void removeDeadCode(Plan& plan) {
  removeDeadLoops(plan);
  removeDeadValues(plan);
}

}  // namespace simdgen::ir
