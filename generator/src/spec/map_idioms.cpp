// SPDX-License-Identifier: Apache-2.0
#include "spec/map_idioms.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace simdgen {
namespace {

// The value of an integer literal as cLiteral writes it ("255", "-128", "4294967295ll").
std::optional<__int128> literalValue(const MapExpr& e) {
  if (e.op != MapOp::literal || isFloat(e.type) || e.text.empty() || e.text[0] == '(') return std::nullopt;
  std::string s = e.text;
  while (!s.empty() && (s.back() == 'l' || s.back() == 'u')) s.pop_back();
  const bool negative = s[0] == '-';
  __int128 v = 0;
  for (std::size_t i = negative ? 1 : 0; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || v > (__int128(1) << 70)) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return negative ? -v : v;
}

// Structurally the same expression (the same value for every input).
bool same(const MapExpr& a, const MapExpr& b) {
  if (a.op != b.op || a.type != b.type || a.text != b.text || a.input != b.input || a.count != b.count || a.mode != b.mode ||
      a.fn != b.fn || a.args.size() != b.args.size())
    return false;
  for (std::size_t k = 0; k < a.args.size(); ++k)
    if (!same(a.args[k], b.args[k])) return false;
  return true;
}

bool isLiteral(const MapExpr& e, __int128 v) {
  const auto x = literalValue(e);
  return x && *x == v;
}

__int128 minOf(DType t) { return isSigned(t) ? -(__int128(1) << (bitsOf(t) - 1)) : 0; }
__int128 maxOf(DType t) { return (__int128(1) << (bitsOf(t) - (isSigned(t) ? 1 : 0))) - 1; }

// The operand x of convert(x, W) when x has dtype t and W is a wider integer type in which every
// value of t is itself (a signed t needs a signed W).
const MapExpr* widened(const MapExpr& e, DType t) {
  if (e.op != MapOp::convert || e.args.size() != 1 || isFloat(e.type)) return nullptr;
  const MapExpr& x = e.args[0];
  if (x.type != t || isFloat(t) || bitsOf(e.type) <= bitsOf(t) || (isSigned(t) && !isSigned(e.type))) return nullptr;
  return &x;
}

// convert(a, W) op convert(b, W) with a, b of dtype t (op: add or sub); W must also hold every
// difference as a signed value when op is sub.
std::optional<std::pair<MapExpr, MapExpr>> widenedPair(const MapExpr& e, MapOp op, DType t) {
  if (e.op != op || e.args.size() != 2 || (op == MapOp::sub && !isSigned(e.type))) return std::nullopt;
  const MapExpr *a = widened(e.args[0], t), *b = widened(e.args[1], t);
  if (!a || !b) return std::nullopt;
  return std::pair{*a, *b};
}

// e clamps x from above by hi (hi = true) or from below by lo: min(x, L) / max(x, L) either way
// round, or select(x > L, L, x), select(x >= L, L, x), select(x < L, x, L), select(x <= L, x, L)
// (and mirrored for a lower bound). Returns x, and the bound in `bound`.
const MapExpr* clampedBy(const MapExpr& e, bool upper, const MapExpr*& bound) {
  if (e.op == (upper ? MapOp::min : MapOp::max) && e.args.size() == 2) {
    const bool lit0 = literalValue(e.args[0]).has_value(), lit1 = literalValue(e.args[1]).has_value();
    if (lit1 && !lit0) return bound = &e.args[1], &e.args[0];
    if (lit0 && !lit1) return bound = &e.args[0], &e.args[1];
    return nullptr;
  }
  if (e.op != MapOp::select || e.args.size() != 3 || e.args[0].args.size() != 2) return nullptr;
  const MapExpr &c = e.args[0], &yes = e.args[1], &no = e.args[2];
  const MapExpr &l = c.args[0], &r = c.args[1];
  const bool above = c.op == MapOp::gt || c.op == MapOp::ge, below = c.op == MapOp::lt || c.op == MapOp::le;
  // x CMP L ? L : x, and x CMP' L ? x : L, where the x kept may also be x clamped from the other
  // side (select(x > MAX, MAX, select(x < MIN, MIN, x)): it equals x wherever it is kept).
  if (!literalValue(r)) return nullptr;
  auto kept = [&](const MapExpr& m) -> const MapExpr* {
    if (same(m, l)) return &m;
    const MapExpr* other = nullptr;
    const MapExpr* x = clampedBy(m, !upper, other);
    return x && same(*x, l) ? &m : nullptr;
  };
  if ((upper ? above : below) && same(yes, r))
    if (const MapExpr* x = kept(no)) return bound = &r, x;
  if ((upper ? below : above) && same(no, r))
    if (const MapExpr* x = kept(yes)) return bound = &r, x;
  return nullptr;
}

MapExpr call(MapOp op, DType t, const MapExpr& a, const MapExpr& b) { return MapExpr{op, t, "", -1, {a, b}}; }

// The idiom rooted at e (a convert to T), if any.
std::optional<MapExpr> idiom(const MapExpr& e) {
  if (e.op != MapOp::convert || e.args.size() != 1 || isFloat(e.type)) return std::nullopt;
  const DType t = e.type;
  const MapExpr& x = e.args[0];
  if (isFloat(x.type) || bitsOf(x.type) <= bitsOf(t)) return std::nullopt;
  // (convert(a, W) + convert(b, W) + 1) >> 1
  if (x.op == MapOp::shr && x.count == 1 && x.args.size() == 1 && x.args[0].op == MapOp::add && x.args[0].args.size() == 2 &&
      (isSigned(x.type) || !isSigned(t))) {
    const MapExpr& s = x.args[0];
    for (int k = 0; k < 2; ++k)
      if (isLiteral(s.args[1 - k], 1))
        if (const auto p = widenedPair(s.args[k], MapOp::add, t)) return call(MapOp::avg_round, t, p->first, p->second);
  }
  // abs_diff(convert(a, W), convert(b, W)): the distance, exact in W, wrapped to T (or saturated
  // to an unsigned T, which holds every distance) is abs_diff(a, b). Recognised bottom-up from C's
  // promoted a > b ? a - b : b - a.
  if (x.op == MapOp::abs_diff && x.args.size() == 2 && (e.mode != ConvMode::sat || !isSigned(t)))
    if (const MapExpr *a = widened(x.args[0], t), *b = widened(x.args[1], t); a && b) return call(MapOp::abs_diff, t, *a, *b);
  const MapExpr* bound = nullptr;
  if (!isSigned(t)) {
    // unsigned: min(sum, MAX) or max(difference, 0)
    if (const MapExpr* s = clampedBy(x, true, bound); s && isLiteral(*bound, maxOf(t)))
      if (const auto p = widenedPair(*s, MapOp::add, t)) return call(MapOp::add_sat, t, p->first, p->second);
    if (const MapExpr* s = clampedBy(x, false, bound); s && isLiteral(*bound, 0))
      if (const auto p = widenedPair(*s, MapOp::sub, t)) return call(MapOp::sub_sat, t, p->first, p->second);
    return std::nullopt;
  }
  // signed: both bounds, in either order
  for (bool upperFirst : {true, false}) {
    const MapExpr* b1 = nullptr;
    const MapExpr* inner = clampedBy(x, upperFirst, b1);
    if (!inner || !isLiteral(*b1, upperFirst ? maxOf(t) : minOf(t))) continue;
    const MapExpr* b2 = nullptr;
    const MapExpr* s = clampedBy(*inner, !upperFirst, b2);
    if (!s || !isLiteral(*b2, upperFirst ? minOf(t) : maxOf(t))) continue;
    for (MapOp op : {MapOp::add, MapOp::sub})
      if (const auto p = widenedPair(*s, op, t)) return call(op == MapOp::add ? MapOp::add_sat : MapOp::sub_sat, t, p->first, p->second);
  }
  return std::nullopt;
}

bool isDifference(const MapExpr& e, const MapExpr& a, const MapExpr& b) {
  return e.op == MapOp::sub && e.args.size() == 2 && same(e.args[0], a) && same(e.args[1], b);
}

// |a - b| spelt out: on integers select(a > b, a - b, b - a) (>=, or < with the branches
// swapped: equal operands give 0 either way; wrapping, both are the distance modulo 2^bits) and
// max(a, b) - min(a, b); on floats abs(a - b), which abs_diff is by definition. A float select is
// not one: a NaN or a -0.0 operand takes the other branch.
std::optional<MapExpr> absoluteDifference(const MapExpr& e) {
  if (isFloat(e.type)) {
    if (e.op == MapOp::abs && e.args.size() == 1 && e.args[0].op == MapOp::sub && e.args[0].args.size() == 2)
      return call(MapOp::abs_diff, e.type, e.args[0].args[0], e.args[0].args[1]);
    return std::nullopt;
  }
  if (e.op == MapOp::sub && e.args.size() == 2 && e.args[0].op == MapOp::max && e.args[1].op == MapOp::min &&
      e.args[0].args.size() == 2 && e.args[1].args.size() == 2) {
    const MapExpr &a = e.args[0].args[0], &b = e.args[0].args[1];
    const auto& m = e.args[1].args;
    if ((same(m[0], a) && same(m[1], b)) || (same(m[0], b) && same(m[1], a))) return call(MapOp::abs_diff, e.type, a, b);
    return std::nullopt;
  }
  if (e.op != MapOp::select || e.args.size() != 3 || e.args[0].args.size() != 2 || e.args[0].type != e.type) return std::nullopt;
  const MapExpr &c = e.args[0], &yes = e.args[1], &no = e.args[2];
  const bool greater = c.op == MapOp::gt || c.op == MapOp::ge, less = c.op == MapOp::lt || c.op == MapOp::le;
  if (!greater && !less) return std::nullopt;
  // The larger operand of the comparison, and the other one.
  const MapExpr &hi = greater ? c.args[0] : c.args[1], &lo = greater ? c.args[1] : c.args[0];
  if (isDifference(yes, hi, lo) && isDifference(no, lo, hi)) return call(MapOp::abs_diff, e.type, hi, lo);
  return std::nullopt;
}

}  // namespace

MapExpr recognizeIdioms(MapExpr e) {
  for (MapExpr& a : e.args) a = recognizeIdioms(std::move(a));
  if (auto r = idiom(e)) return *r;
  if (auto r = absoluteDifference(e)) return *r;
  return e;
}

}  // namespace simdgen
