// SPDX-License-Identifier: Apache-2.0
#include "emit/load_folding.h"

#include <cctype>
#include <set>

namespace simdgen::emit {

namespace {

void countIndex(const ir::Index& idx, std::map<std::string, int>& uses) {
  for (const auto& t : idx.terms)
    for (const auto& s : t.symbols) ++uses[s];
}

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Positions of `name` as a whole identifier in `line`.
std::vector<size_t> occurrences(const std::string& line, const std::string& name) {
  std::vector<size_t> at;
  for (size_t p = line.find(name); p != std::string::npos; p = line.find(name, p + 1)) {
    const bool startOk = p == 0 || !isIdentChar(line[p - 1]);
    const bool endOk = p + name.size() == line.size() || !isIdentChar(line[p + name.size()]);
    if (startOk && endOk) at.push_back(p);
  }
  return at;
}

}  // namespace

std::map<std::string, int> countUses(const ir::Block& body, size_t from) {
  std::map<std::string, int> uses;
  for (size_t k = from; k < body.size(); ++k) {
    const ir::Stmt& s = body[k];
    for (const auto& a : s.args) ++uses[a];
    if (!s.pred.empty()) ++uses[s.pred];
    for (const ir::Index* idx : {&s.index, &s.stride, &s.lo, &s.hi, &s.cmpLhs, &s.cmpRhs, &s.step})
      countIndex(*idx, uses);
    for (const auto& [name, n] : countUses(s.body)) uses[name] += n;
  }
  return uses;
}

bool foldable(const ir::Block& block, size_t k) {
  if (k + 1 >= block.size()) return false;
  const ir::Stmt &load = block[k], &next = block[k + 1];
  if (load.kind != ir::Stmt::Kind::Op || load.op != ir::OpKind::Load || !load.declare || !load.pred.empty()) return false;
  if (load.type.lanes == 1 || next.kind != ir::Stmt::Kind::Op) return false;
  int inNext = 0;
  for (const auto& a : next.args) inNext += a == load.dst;
  if (inNext != 1) return false;
  const auto uses = countUses(block, k + 1);  // the variable is local to this block
  auto it = uses.find(load.dst);
  return it != uses.end() && it->second == 1;
}

namespace {

bool changes(const ir::Stmt& s, const std::string& dst, const std::set<std::string>& symbols) {
  // Index expressions may read values as well as loop variables: an op assigning one moves it too.
  if (s.kind == ir::Stmt::Kind::Op && (s.dst == dst || symbols.count(s.dst))) return true;
  if ((s.kind == ir::Stmt::Kind::For || s.kind == ir::Stmt::Kind::Let) && symbols.count(s.var)) return true;
  for (const ir::Stmt& inner : s.body)
    if (changes(inner, dst, symbols)) return true;
  return false;
}

}  // namespace

bool predicateInlinable(const ir::Block& block, size_t k) {
  const ir::Stmt& def = block[k];
  if (def.kind != ir::Stmt::Kind::Op || !def.type.predicate) return false;
  std::set<std::string> symbols;
  for (const ir::Index* idx : {&def.lo, &def.hi})
    for (const auto& t : idx->terms) symbols.insert(t.symbols.begin(), t.symbols.end());
  for (size_t j = k + 1; j < block.size(); ++j)
    if (changes(block[j], def.dst, symbols)) return false;
  return true;
}

std::optional<std::vector<std::string>> foldLoad(const std::vector<std::string>& loadLines, const std::string& name,
                                                 const std::vector<std::string>& consumerLines) {
  if (loadLines.size() != 1) return std::nullopt;
  const std::string& l = loadLines.front();
  const std::string head = " " + name + " = ";
  const size_t eq = l.find(head);
  if (eq == std::string::npos || l.empty() || l.back() != ';') return std::nullopt;
  const std::string expr = l.substr(eq + head.size(), l.size() - 1 - (eq + head.size()));
  int total = 0;
  for (const auto& c : consumerLines) total += static_cast<int>(occurrences(c, name).size());
  if (total != 1) return std::nullopt;
  std::vector<std::string> out = consumerLines;
  for (auto& c : out) {
    const auto at = occurrences(c, name);
    if (!at.empty()) c = c.substr(0, at.front()) + expr + c.substr(at.front() + name.size());
  }
  return out;
}

}  // namespace simdgen::emit
