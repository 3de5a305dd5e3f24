#include "ir/plan.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "ir/fold_stage.h"

namespace simdgen::ir {

std::string toString(VecType t) {
  std::string s(nameOf(t.elem));
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

Index Index::constant(int64_t c) {
  Index i;
  if (c != 0) i.terms.push_back({c, {}});
  return i;
}
Index Index::symbol(const std::string& s, int64_t coef) {
  Index i;
  i.terms.push_back({coef, {s}});
  return i;
}
Index Index::operator+(const Index& o) const {
  Index r = *this;
  r.terms.insert(r.terms.end(), o.terms.begin(), o.terms.end());
  return r.simplified();
}
Index Index::operator+(int64_t c) const { return *this + constant(c); }
Index Index::operator-(const Index& o) const {
  Index neg = o;
  for (auto& t : neg.terms) t.coef = -t.coef;
  return *this + neg;
}
Index Index::times(const std::string& s) const {
  Index r = *this;
  for (auto& t : r.terms) t.symbols.push_back(s);
  return r.simplified();
}
Index Index::simplified() const {
  std::map<std::vector<std::string>, int64_t> merged;
  for (Term t : terms) {
    std::sort(t.symbols.begin(), t.symbols.end());
    merged[t.symbols] += t.coef;
  }
  Index r;
  // Symbol terms first (in name order), the constant last: "i*stride + j + 64".
  for (const auto& [syms, coef] : merged)
    if (coef != 0 && !syms.empty()) r.terms.push_back({coef, syms});
  if (auto it = merged.find({}); it != merged.end() && it->second != 0)
    r.terms.push_back({it->second, {}});
  return r;
}
std::string Index::str() const {
  if (terms.empty()) return "0";
  std::string s;
  for (size_t k = 0; k < terms.size(); ++k) {
    const Term& t = terms[k];
    int64_t c = t.coef;
    if (k > 0) {
      s += c < 0 ? " - " : " + ";
      c = c < 0 ? -c : c;
    }
    std::string prod;
    for (const auto& sym : t.symbols) prod += (prod.empty() ? "" : " * ") + sym;
    if (prod.empty())
      s += std::to_string(c);
    else if (c == 1)
      s += prod;
    else if (c == -1)
      s += "-" + prod;
    else
      s += std::to_string(c) + " * " + prod;
  }
  return s;
}

Stmt comment(std::string text) {
  Stmt s;
  s.kind = Stmt::Kind::Comment;
  s.text = std::move(text);
  return s;
}
Stmt forLoop(std::string var, Index lo, Index hi, int64_t step, Block body, bool continues,
             std::string note) {
  Stmt s;
  s.kind = Stmt::Kind::For;
  s.var = std::move(var);
  s.lo = std::move(lo);
  s.hi = std::move(hi);
  s.step = step;
  s.body = std::move(body);
  s.continues = continues;
  s.text = std::move(note);
  return s;
}
Stmt ifLess(Index lhs, Index rhs, Block body, std::string note) {
  Stmt s;
  s.kind = Stmt::Kind::If;
  s.cmpLhs = std::move(lhs);
  s.cmpRhs = std::move(rhs);
  s.body = std::move(body);
  s.text = std::move(note);
  return s;
}
Stmt op(OpKind k, std::string dst, VecType type, std::vector<std::string> args) {
  Stmt s;
  s.kind = Stmt::Kind::Op;
  s.op = k;
  s.dst = std::move(dst);
  s.type = type;
  s.args = std::move(args);
  return s;
}

Stmt ifValues(std::string a, Cmp cmp, std::string b, Block body, std::string note) {
  Stmt s;
  s.kind = Stmt::Kind::IfValues;
  s.args = {std::move(a), std::move(b)};
  s.cmp = cmp;
  s.body = std::move(body);
  s.text = std::move(note);
  return s;
}

std::string_view symbolOf(Cmp c) {
  constexpr std::string_view names[] = {"<", "<=", ">", ">=", "==", "!="};
  return names[static_cast<int>(c)];
}

DType Plan::outputType(const std::string& name) const {
  for (const auto& [n, t] : outputs)
    if (n == name) return t;
  if (outputs.empty() && (name.empty() || name == "output")) return output;
  throw std::logic_error("plan has no output '" + name + "'");
}

FoldNetwork FoldNetwork::make(int lanes, int elemBits) {
  if (lanes < 2 || (lanes & (lanes - 1)) != 0)
    throw std::logic_error("FoldNetwork needs a power-of-two lane count >= 2");
  FoldNetwork n;
  n.lanes = lanes;
  n.elemBits = elemBits;
  for (int b = lanes; b >= 2; b /= 2) n.blockLanes.push_back(b);
  // Tag every lane with its input vector; after the network each result lane holds exactly one.
  std::vector<std::vector<int>> tags(lanes, std::vector<int>(lanes));
  for (int m = 0; m < lanes; ++m) std::fill(tags[m].begin(), tags[m].end(), m);
  auto same = [](int x, int y) {
    if (x != y) throw std::logic_error("fold network mixes rows");
    return x;
  };
  std::vector<int> out = runFoldNetwork(tags, n.blockLanes, elemBits, same);
  n.inputOrder.assign(lanes, -1);
  for (int lane = 0; lane < lanes; ++lane) n.inputOrder[out[lane]] = lane;
  return n;
}

}  // namespace simdgen::ir
