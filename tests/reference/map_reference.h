// SPDX-License-Identifier: Apache-2.0
// The scalar reference of the `map` family, written from docs/spec.md (not from the generator):
// evaluates an output's expression text for one element. Values are held as the bits of their
// dtype; integers wrap, min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b, abs of the signed
// minimum is itself (so is its negation), float abs clears the sign bit and unary minus flips it,
// '/' divides floats (correctly rounded), fma rounds once, comparisons of NaN are false
// except !=, relu(x) = max(x, 0), clamp(x, lo, hi) = min(max(x, lo), hi); & | ^ ~ on the bits,
// x << n drops the bits shifted out, x >> n is arithmetic for signed types and logical for
// unsigned ones (C's precedence: | loosest, then ^, &, shifts, + -, * /; numbers decimal or 0x
// hexadecimal). convert(x, T[, mode]):
// to a float the C++ conversion (round to nearest even); integers to integers keep the value when
// it fits, else wrap (modulo 2^bits) or sat (clamp to T's range); floats to integers round by
// trunc (default) / nearest (ties to even) / floor / ceil, then clamp to T's range, NaN giving 0.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdgen_ref::map {

// A dtype by its spec name: kind 'i', 'u' or 'f' and width in bits.
struct DType {
  char kind = 'f';
  int bits = 32;
  static DType parse(const std::string& s) { return {s[0], std::stoi(s.substr(1))}; }
  bool is_float() const { return kind == 'f'; }
  bool operator==(const DType& o) const { return kind == o.kind && bits == o.bits; }
};

// One element: floats as double (an f32 value is exactly representable), integers as the value
// sign- or zero-extended to 64 bits.
struct Value {
  double f = 0;
  uint64_t u = 0;
};

inline uint64_t wrap(DType t, uint64_t v) {
  if (t.bits == 64) return v;
  const uint64_t mask = (uint64_t{1} << t.bits) - 1;
  v &= mask;
  if (t.kind == 'i' && (v >> (t.bits - 1)) & 1) v |= ~mask;
  return v;
}
inline double round_to(DType t, double v) { return t.bits == 32 ? double(float(v)) : v; }

inline Value read(DType t, const void* base, int64_t i) {
  Value v;
  const auto* p = static_cast<const unsigned char*>(base) + i * (t.bits / 8);
  if (t.is_float() && t.bits == 32) {
    float x;
    std::memcpy(&x, p, 4);
    v.f = x;
  } else if (t.is_float()) {
    std::memcpy(&v.f, p, 8);
  } else {
    uint64_t x = 0;
    std::memcpy(&x, p, size_t(t.bits / 8));
    v.u = wrap(t, x);
  }
  return v;
}
inline void write(DType t, void* base, int64_t i, Value v) {
  auto* p = static_cast<unsigned char*>(base) + i * (t.bits / 8);
  if (t.is_float() && t.bits == 32) {
    const float x = float(v.f);
    std::memcpy(p, &x, 4);
  } else if (t.is_float()) {
    std::memcpy(p, &v.f, 8);
  } else {
    std::memcpy(p, &v.u, size_t(t.bits / 8));
  }
}

// An expression compiled to a tree over named inputs; eval() computes one element.
class Expression {
 public:
  Expression(const std::string& text, const std::map<std::string, DType>& inputs, DType result)
      : text_(text), inputs_(inputs) {
    root_ = parse_or();
    skip();
    if (at_ != text_.size()) fail("trailing text");
    result_ = result;
  }
  // `element(name)` gives the input's value at this position.
  Value eval(const std::function<Value(const std::string&)>& element) const { return eval(root_, result_, element); }

 private:
  struct Node {
    std::string op;  // "num", "name", "+", "-", "*", "neg", function name, or a comparison
    std::string text;
    std::vector<Node> args;
  };

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("map reference: expression '" + text_ + "': " + why);
  }
  void skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (text_.compare(at_, tok.size(), tok) != 0) return false;
    if (tok.size() == 1 && (tok == "<" || tok == ">") && at_ + 1 < text_.size() && (text_[at_ + 1] == '=' || text_[at_ + 1] == tok[0]))
      return false;
    at_ += tok.size();
    return true;
  }
  Node parse_or() {
    Node n = parse_xor();
    while (eat("|")) n = Node{"|", "", {n, parse_xor()}};
    return n;
  }
  Node parse_xor() {
    Node n = parse_and();
    while (eat("^")) n = Node{"^", "", {n, parse_and()}};
    return n;
  }
  Node parse_and() {
    Node n = parse_shift();
    while (eat("&")) n = Node{"&", "", {n, parse_shift()}};
    return n;
  }
  Node parse_shift() {
    Node n = parse_sum();
    for (;;) {
      if (eat("<<")) n = Node{"<<", "", {n, parse_sum()}};
      else if (eat(">>")) n = Node{">>", "", {n, parse_sum()}};
      else return n;
    }
  }
  Node parse_sum() {
    Node n = parse_product();
    for (;;) {
      if (eat("+")) n = Node{"+", "", {n, parse_product()}};
      else if (eat("-")) n = Node{"-", "", {n, parse_product()}};
      else return n;
    }
  }
  Node parse_product() {
    Node n = parse_unary();
    for (;;) {
      if (eat("*")) n = Node{"*", "", {n, parse_unary()}};
      else if (eat("/")) n = Node{"/", "", {n, parse_unary()}};
      else return n;
    }
  }
  Node parse_unary() {
    if (eat("-")) return Node{"neg", "", {parse_unary()}};
    if (eat("~")) return Node{"~", "", {parse_unary()}};
    skip();
    if (eat("(")) {
      Node n = parse_or();
      if (!eat(")")) fail("expected )");
      return n;
    }
    const size_t b = at_;
    if (at_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[at_])) || text_[at_] == '.')) {
      while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '.' ||
                                    ((text_[at_] == '+' || text_[at_] == '-') && (text_[at_ - 1] == 'e' || text_[at_ - 1] == 'E'))))
        ++at_;
      return Node{"num", text_.substr(b, at_ - b), {}};
    }
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    const std::string name = text_.substr(b, at_ - b);
    if (name.empty()) fail("unexpected character");
    if (!eat("(")) return Node{"name", name, {}};
    Node call{name, "", {}};
    if (name == "select") {
      Node a = parse_or();
      std::string cmp;
      for (const char* c : {"<=", ">=", "==", "!=", "<", ">"})
        if (eat(c)) {
          cmp = c;
          break;
        }
      if (cmp.empty()) fail("select needs a comparison");
      call.args.push_back(Node{cmp, "", {a, parse_or()}});
    } else {
      call.args.push_back(parse_or());
    }
    while (eat(",")) call.args.push_back(parse_or());
    if (!eat(")")) fail("expected )");
    return call;
  }

  // The dtype of n's value, from its inputs and conversions (comparisons take their operands' dtype).
  bool dtype_of(const Node& n, DType& t) const {
    if (n.op == "name") {
      t = inputs_.at(n.text);
      return true;
    }
    if (n.op == "convert") {
      t = DType::parse(n.args.at(1).text);
      return true;
    }
    for (size_t k = n.op == "select" ? 1 : 0; k < n.args.size(); ++k)
      if (dtype_of(n.args[k], t)) return true;
    return false;
  }

  // convert(): x of dtype `from` as dtype `to`.
  static Value convert(DType from, DType to, Value x, const std::string& mode) {
    Value r;
    if (to.is_float()) {
      if (from.is_float()) r.f = round_to(to, x.f);
      else if (from.kind == 'i') r.f = to.bits == 32 ? double(float(int64_t(x.u))) : double(int64_t(x.u));
      else r.f = to.bits == 32 ? double(float(x.u)) : double(x.u);
      return r;
    }
    const __int128 lo = to.kind == 'i' ? -(__int128(1) << (to.bits - 1)) : 0;
    const __int128 hi = to.kind == 'i' ? (__int128(1) << (to.bits - 1)) - 1 : (__int128(1) << to.bits) - 1;
    __int128 v;
    if (from.is_float()) {
      if (std::isnan(x.f)) return r;
      const double y = mode == "nearest" ? std::nearbyint(x.f) : mode == "floor" ? std::floor(x.f) : mode == "ceil" ? std::ceil(x.f)
                                                                                                   : std::trunc(x.f);
      if (y <= double(lo)) v = lo;
      else if (y >= double(hi)) v = hi;  // beyond 2^53 every double is an integer and double(hi) is the next power of two
      else v = __int128(y);
    } else {
      v = from.kind == 'i' ? __int128(int64_t(x.u)) : __int128(x.u);
      if (mode == "sat") v = v < lo ? lo : v > hi ? hi : v;
    }
    r.u = wrap(to, uint64_t(v));
    return r;
  }

  static Value number(const std::string& s, bool negative, DType t) {
    Value v;
    if (t.is_float()) {
      v.f = round_to(t, (negative ? -1 : 1) * std::strtod(s.c_str(), nullptr));
    } else {
      const bool hex = s.size() > 1 && (s[1] == 'x' || s[1] == 'X');
      const uint64_t m = hex ? std::strtoull(s.c_str() + 2, nullptr, 16) : std::strtoull(s.c_str(), nullptr, 10);
      v.u = wrap(t, negative ? 0 - m : m);
    }
    return v;
  }

  static bool less(DType t, Value a, Value b) {
    if (t.is_float()) return a.f < b.f;
    return t.kind == 'i' ? int64_t(a.u) < int64_t(b.u) : a.u < b.u;
  }
  static bool equal(DType t, Value a, Value b) { return t.is_float() ? a.f == b.f : a.u == b.u; }

  Value eval(const Node& n, DType t, const std::function<Value(const std::string&)>& element) const {
    auto arg = [&](size_t k) { return eval(n.args[k], t, element); };
    Value r;
    if (n.op == "num") return number(n.text, false, t);
    if (n.op == "neg" && n.args[0].op == "num") return number(n.args[0].text, true, t);
    if (n.op == "neg") {  // floats: the sign bit flips (zeros, NaN); integers: 0 - a, wrapping
      const Value a = arg(0);
      if (t.is_float()) r.f = -a.f;
      else r.u = wrap(t, 0 - a.u);
      return r;
    }
    if (n.op == "name") return element(n.text);
    if (n.op == "/") {  // floats only: correctly rounded in the dtype (an f32 quotient is rounded once)
      const Value a = arg(0), b = arg(1);
      r.f = t.bits == 32 ? double(float(a.f) / float(b.f)) : a.f / b.f;
      return r;
    }
    if (n.op == "+" || n.op == "-" || n.op == "*") {
      const Value a = arg(0), b = arg(1);
      if (t.is_float()) {
        r.f = round_to(t, n.op == "+" ? a.f + b.f : n.op == "-" ? a.f - b.f : a.f * b.f);
      } else {
        r.u = wrap(t, n.op == "+" ? a.u + b.u : n.op == "-" ? a.u - b.u : a.u * b.u);
      }
      return r;
    }
    if (n.op == "&" || n.op == "|" || n.op == "^") {
      const Value a = arg(0), b = arg(1);
      r.u = wrap(t, n.op == "&" ? a.u & b.u : n.op == "|" ? a.u | b.u : a.u ^ b.u);
      return r;
    }
    if (n.op == "~") {
      r.u = wrap(t, ~arg(0).u);
      return r;
    }
    if (n.op == "<<" || n.op == ">>") {  // the count is a number
      const Value a = arg(0);
      const unsigned count = unsigned(number(n.args[1].text, false, DType{'u', 64}).u);
      if (n.op == "<<") r.u = wrap(t, a.u << count);
      else r.u = t.kind == 'i' ? wrap(t, uint64_t(int64_t(a.u) >> count)) : a.u >> count;
      return r;
    }
    if (n.op == "min" || n.op == "max") {
      const Value a = arg(0), b = arg(1);
      return n.op == "min" ? (less(t, a, b) ? a : b) : (less(t, b, a) ? a : b);
    }
    if (n.op == "relu") {
      const Value a = arg(0), zero{};
      return less(t, zero, a) ? a : zero;
    }
    if (n.op == "clamp") {
      const Value x = arg(0), lo = arg(1), hi = arg(2);
      const Value m = less(t, lo, x) ? x : lo;
      return less(t, m, hi) ? m : hi;
    }
    if (n.op == "abs") {
      const Value a = arg(0);
      if (t.is_float()) r.f = std::fabs(a.f);
      else r.u = t.kind == 'i' && int64_t(a.u) < 0 ? wrap(t, 0 - a.u) : a.u;
      return r;
    }
    if (n.op == "fma") {
      const Value a = arg(0), b = arg(1), c = arg(2);
      r.f = t.bits == 32 ? double(std::fma(float(a.f), float(b.f), float(c.f))) : std::fma(a.f, b.f, c.f);
      return r;
    }
    if (n.op == "convert") {
      DType from;
      if (!dtype_of(n.args[0], from)) fail("convert of a number");
      return convert(from, t, eval(n.args[0], from, element), n.args.size() > 2 ? n.args[2].text : "");
    }
    if (n.op == "select") {
      const Node& c = n.args[0];
      DType ct;
      if (!dtype_of(c, ct)) fail("comparison without an input");
      const Value a = eval(c.args[0], ct, element), b = eval(c.args[1], ct, element);
      bool yes = false;
      if (c.op == "<") yes = less(ct, a, b);
      else if (c.op == ">") yes = less(ct, b, a);
      else if (c.op == "<=") yes = less(ct, a, b) || equal(ct, a, b);
      else if (c.op == ">=") yes = less(ct, b, a) || equal(ct, a, b);
      else if (c.op == "==") yes = equal(ct, a, b);
      else yes = !equal(ct, a, b);
      return yes ? arg(1) : arg(2);
    }
    fail("unknown operation " + n.op);
  }

  std::string text_;
  std::map<std::string, DType> inputs_;
  size_t at_ = 0;
  Node root_;
  DType result_;
};

}  // namespace simdgen_ref::map
