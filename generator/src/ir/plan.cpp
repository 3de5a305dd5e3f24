// SPDX-License-Identifier: Apache-2.0
#include "ir/plan.h"

#include <algorithm>
#include <stdexcept>

#include "ir/shuffle.h"

namespace simdgen::ir {

std::string toString(VecType t) {
  std::string s(nameOf(t.elem));
  if (t.scalable) s += " x vscale*" + std::to_string(t.lanes);
  else if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return t.predicate ? "mask(" + s + ")" : s;
}

VecType scalableOf(DType t) { return {t, 128 / bitsOf(t), true, false}; }

std::optional<int64_t> Index::constantValue() const {
  int64_t v = 0;
  for (const auto& t : terms) {
    if (!t.symbols.empty()) return std::nullopt;
    v += t.coef;
  }
  return v;
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
Index Index::operator*(int64_t c) const {
  Index r = *this;
  for (auto& t : r.terms) t.coef *= c;
  return r.simplified();
}
Index Index::simplified() const {
  // Sorting and merging neighbours in place, not a std::map of symbol lists: the planners build
  // indices by the hundred thousand (a sixth of a convolution's generation time went to map nodes).
  std::vector<Term> sorted = terms;
  for (Term& t : sorted)
    if (!std::is_sorted(t.symbols.begin(), t.symbols.end())) std::sort(t.symbols.begin(), t.symbols.end());
  std::sort(sorted.begin(), sorted.end(), [](const Term& a, const Term& b) { return a.symbols < b.symbols; });
  std::vector<Term> merged;
  merged.reserve(sorted.size());
  for (Term& t : sorted) {
    if (!merged.empty() && merged.back().symbols == t.symbols) merged.back().coef += t.coef;
    else merged.push_back(std::move(t));
  }
  // Symbol terms first (in name order), the constant (which sorts first) last: "i*stride + j + 64".
  const bool constant = !merged.empty() && merged.front().symbols.empty();
  Index r;
  r.terms.reserve(merged.size());
  for (size_t k = constant ? 1 : 0; k < merged.size(); ++k)
    if (merged[k].coef != 0) r.terms.push_back(std::move(merged[k]));
  if (constant && merged.front().coef != 0) r.terms.push_back(std::move(merged.front()));
  return r;
}
std::string Index::str() const {
  if (terms.empty()) return "0";
  // A positive symbol term leads when there is one: "n - i", not "-i + n".
  std::vector<Term> ordered = terms;
  std::stable_partition(ordered.begin(), ordered.end(), [](const Term& t) { return t.coef > 0 && !t.symbols.empty(); });
  if (ordered.front().coef < 0 || ordered.front().symbols.empty()) ordered = terms;
  std::string s;
  for (size_t k = 0; k < ordered.size(); ++k) {
    const Term& t = ordered[k];
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
  return forLoop(std::move(var), std::move(lo), std::move(hi), Index::constant(step), std::move(body), continues,
                 std::move(note));
}
Stmt forLoop(std::string var, Index lo, Index hi, Index step, Block body, bool continues,
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
Stmt ifIndex(Index lhs, Cmp cmp, Index rhs, Block body, std::string note) {
  Stmt s = ifLess(std::move(lhs), std::move(rhs), std::move(body), std::move(note));
  s.cmp = cmp;
  return s;
}
bool holds(Cmp cmp, int64_t a, int64_t b) {
  switch (cmp) {
    case Cmp::lt: return a < b;
    case Cmp::le: return a <= b;
    case Cmp::gt: return a > b;
    case Cmp::ge: return a >= b;
    case Cmp::eq: return a == b;
    default: return a != b;
  }
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
Stmt letIndex(std::string var, Index value) {
  Stmt s;
  s.kind = Stmt::Kind::Let;
  s.var = std::move(var);
  s.lo = std::move(value);
  return s;
}
Stmt letMax(std::string var, Index a, Index b) {
  Stmt s = letMin(std::move(var), std::move(a), std::move(b));
  s.letMin = false;
  s.letMax = true;
  return s;
}
Stmt letMin(std::string var, Index a, Index b) {
  Stmt s = letIndex(std::move(var), std::move(a));
  s.hi = std::move(b);
  s.letMin = true;
  return s;
}
Stmt letOpaque(std::string var, Index value) {
  Stmt s = letIndex(std::move(var), std::move(value));
  s.opaque = true;
  return s;
}
Stmt letByCpu(std::string var, std::string trait, Index withTrait, Index otherwise) {
  Stmt s = letIndex(std::move(var), std::move(withTrait));
  s.hi = std::move(otherwise);
  s.cpuTrait = std::move(trait);
  return s;
}
Stmt letRoundDown(std::string var, Index value, int64_t multiple) {
  Stmt s = letIndex(std::move(var), std::move(value));
  s.roundDownTo = multiple;
  return s;
}
Stmt letAligned(std::string var, std::string tensor, Index element, int bytes) {
  Stmt s = letIndex(std::move(var), std::move(element));
  s.tensor = std::move(tensor);
  s.alignBytes = bytes;
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

const Tensor& Plan::tensor(const std::string& name) const {
  for (const Tensor& t : tensors)
    if (name.empty() ? !t.output : t.name == name) return t;
  throw std::logic_error("plan has no " + (name.empty() ? std::string("input tensor") : "tensor '" + name + "'"));
}

const Tensor& Plan::outputTensor(const std::string& name) const {
  for (const Tensor& t : tensors)
    if (t.output && (name.empty() || t.name == name)) return t;
  throw std::logic_error("plan has no output " + (name.empty() ? std::string("tensor") : "'" + name + "'"));
}

std::vector<std::string> Plan::runtimeSymbols() const {
  std::vector<std::string> r;
  for (const Param& p : params)
    if (p.kind == Param::Kind::extent) r.push_back(p.name);
  return r;
}

std::string_view nameOf(OpKind k) {
  switch (k) {
    case OpKind::Splat: return "splat";
    case OpKind::Load: return "load";
    case OpKind::LoadBroadcast: return "load_broadcast";
    case OpKind::GatherRows: return "gather_rows";
    case OpKind::LoadHalves: return "load_halves";
    case OpKind::Store: return "store";
    case OpKind::ScatterRows: return "scatter_rows";
    case OpKind::Extend: return "extend";
    case OpKind::Binary: return "binary";
    case OpKind::Fma: return "fma";
    case OpKind::DotBf16: return "dot_bf16";
    case OpKind::DotBf16Odd: return "dot_bf16_odd";
    case OpKind::DotU8I8: return "dot_u8i8";
    case OpKind::DotI8I8: return "dot_i8i8";
    case OpKind::DotU8U8: return "dot_u8u8";
    case OpKind::DotI16I16: return "dot_i16i16";
    case OpKind::Sub: return "sub";
    case OpKind::Neg: return "neg";
    case OpKind::Div: return "div";
    case OpKind::Abs: return "abs";
    case OpKind::Sqrt: return "sqrt";
    case OpKind::ScaleB: return "scale_b";
    case OpKind::GetExp: return "get_exp";
    case OpKind::GetMant: return "get_mant";
    case OpKind::Round: return "round";
    case OpKind::AddSat: return "add_sat";
    case OpKind::SubSat: return "sub_sat";
    case OpKind::AvgRound: return "avg_round";
    case OpKind::AbsDiff: return "abs_diff";
    case OpKind::Popcount: return "popcount";
    case OpKind::ShiftLeft: return "shift_left";
    case OpKind::ShiftRight: return "shift_right";
    case OpKind::Select: return "select";
    case OpKind::DotAccumulate: return "dot_accumulate";
    case OpKind::ReduceLanes: return "reduce_lanes";
    case OpKind::ReduceRows: return "reduce_rows";
    case OpKind::Convert: return "convert";
    case OpKind::Bitcast: return "bitcast";
    case OpKind::Shuffle: return "shuffle";
    case OpKind::WhileLt: return "whilelt";
    case OpKind::Compare: return "compare";
    case OpKind::Not: return "not";
    case OpKind::NaNMask: return "nan_mask";
    case OpKind::LocateEqual: return "locate_equal";
    case OpKind::LocateNaN: return "locate_nan";
    case OpKind::SetIndex: return "position";
    case OpKind::Fence: return "fence";
  }
  return "?";
}

std::pair<Shuffle, Shuffle> FoldNetwork::stage(size_t k) const {
  const int bits = lanes * elemBits, blockBits = blockLanes.at(k) * elemBits;
  if (pairwise) return {shuffles::uzp1(elemBits), shuffles::uzp2(elemBits)};
  if (blockBits == bits && bits == 512) return {shuffles::lanes128(0x44), shuffles::lanes128(0xEE)};
  if (blockBits == bits && bits == 256) return {shuffles::lanes128(0x20), shuffles::lanes128(0x31)};
  if (blockBits == 256 && bits == 512) return {shuffles::lanes128(0x88), shuffles::lanes128(0xDD)};
  if (blockBits == 128 && bits >= 128) return {shuffles::unpackLo(64), shuffles::unpackHi(64)};
  if (blockBits == 64 && elemBits == 32 && bits >= 128) return {shuffles::shufflePs(0x88), shuffles::shufflePs(0xDD)};
  // Other shapes (simulation widths): the same fold as explicit lane maps.
  const int blk = blockLanes[k], seg = blockBits > 128 ? lanes : std::min(lanes, 128 / elemBits);
  std::vector<int> lower, upper;
  for (int s = 0; s < lanes; s += seg)
    for (int src : {0, lanes})
      for (int b = s; b < s + seg; b += blk)
        for (int t = 0; t < blk / 2; ++t) {
          lower.push_back(src + b + t);
          upper.push_back(src + b + blk / 2 + t);
        }
  return {shuffles::explicitMap(lower), shuffles::explicitMap(upper)};
}

FoldNetwork FoldNetwork::make(int lanes, int elemBits, bool pairwise) {
  if (lanes < 2 || (lanes & (lanes - 1)) != 0)
    throw std::logic_error("FoldNetwork needs a power-of-two lane count >= 2");
  FoldNetwork n;
  n.lanes = lanes;
  n.elemBits = elemBits;
  n.pairwise = pairwise;
  for (int b = lanes; b >= 2; b /= 2) n.blockLanes.push_back(b);
  // Tag every lane with its input vector; after the network each result lane holds exactly one.
  std::vector<std::vector<int>> vecs(lanes, std::vector<int>(lanes));
  for (int m = 0; m < lanes; ++m) std::fill(vecs[m].begin(), vecs[m].end(), m);
  for (size_t k = 0; k < n.blockLanes.size(); ++k) {
    const auto [lower, upper] = n.stage(k);
    const std::vector<int> lo = lower.laneMap(lanes, elemBits), hi = upper.laneMap(lanes, elemBits);
    std::vector<std::vector<int>> next;
    for (size_t m = 0; m + 1 < vecs.size(); m += 2) {
      std::vector<int> both = vecs[m], out(lanes);
      both.insert(both.end(), vecs[m + 1].begin(), vecs[m + 1].end());
      for (int l = 0; l < lanes; ++l) {
        if (both[lo[l]] != both[hi[l]]) throw std::logic_error("fold network mixes rows");
        out[l] = both[lo[l]];
      }
      next.push_back(out);
    }
    vecs = std::move(next);
  }
  n.inputOrder.assign(lanes, -1);
  for (int lane = 0; lane < lanes; ++lane) n.inputOrder[vecs.front()[lane]] = lane;
  return n;
}

}  // namespace simdgen::ir
