// SPDX-License-Identifier: Apache-2.0
// The scalar reference of the `map` family, written from docs/spec.md (not from the generator):
// evaluates an output's expression text for one element. Values are held as the bits of their
// dtype; integers wrap, min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b, abs of the signed
// minimum is itself (so is its negation), float abs clears the sign bit and unary minus flips it,
// '/' divides floats (correctly rounded), fma rounds once, sqrt is correctly rounded in the dtype,
// floor/ceil/trunc/nearest (ties to even) round a float to an integral float (zeros keep their
// sign), comparisons of NaN are false except !=, relu(x) = max(x, 0), clamp(x, lo, hi) = min(max(x, lo), hi); & | ^ ~ on the bits,
// x << n drops the bits shifted out, x >> n is arithmetic for signed types and logical for
// unsigned ones (C's precedence: | loosest, then ^, &, shifts, + -, * /; numbers decimal or 0x
// hexadecimal; a float number is the decimal rounded once to the dtype, as strtof / strtod round
// it: subnormals kept, an f suffix allowed). convert(x, T[, mode]):
// to a float the C++ conversion (round to nearest even); integers to integers keep the value when
// it fits, else wrap (modulo 2^bits) or sat (clamp to T's range); floats to integers round by
// trunc (default) / nearest (ties to even) / floor / ceil, then clamp to T's range, NaN giving 0.
// add_sat(a, b) and sub_sat(a, b) are the exact sum and difference clamped to T's range,
// avg_round(a, b) the exact (a + b + 1) / 2 rounded down (integers only); abs_diff(a, b) the exact
// distance |a - b| wrapped to T (integers), fabs of the rounded difference (floats); popcount(x)
// the number of ones among x's bits (integers). exp, exp2, log,
// log2, tanh, erf, sigmoid(x) = 1 / (1 + exp(-x)), gelu(x) = x/2 * erfc(-x / sqrt2) and gelu_tanh(x)
// = x/2 * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) are the correctly rounded values (computed in
// long double), C's special values included (the gelus give -0 at -inf).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../math/math_reference.h"

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
    resolve(root_);
  }
  // Whether the expression calls a function computed to a ULP bound (exp, log, ...): its value here is
  // the correctly rounded one, and a result may differ from it by that bound (and what later
  // operations make of it).
  bool approximate() const { return approximate_; }
  // The names the expression reads, in the order of eval's `slot_values`.
  const std::vector<std::string>& slots() const { return slots_; }
  // One element from the values of slots() at this position.
  Value eval(const Value* slot_values) const { return eval(root_, result_, slot_values); }
  // The same with `element(name)` giving each named value.
  Value eval(const std::function<Value(const std::string&)>& element) const {
    std::vector<Value> v;
    for (const std::string& name : slots_) v.push_back(element(name));
    return eval(v.data());
  }

 private:
  enum class Code { num, name, neg, div, add, sub, mul, bit_and, bit_or, bit_xor, bit_not, shl, shr, min, max, relu, clamp, abs, fma,
                    convert, select, lt, gt, le, ge, eq, ne, mode, sqrt, floor, ceil, trunc, nearest, add_sat, sub_sat,
                    avg_round, abs_diff, popcount, exp, exp2, expm1, log, log2, log1p, recip, rsqrt, sin, cos, sigmoid, tanh, erf, gelu, gelu_tanh };
  struct Node {
    Node() = default;
    Node(std::string o, std::string t, std::vector<Node> a) : op(std::move(o)), text(std::move(t)), args(std::move(a)) {}
    std::string op;  // "num", "name", "+", "-", "*", "neg", function name, or a comparison
    std::string text;
    std::vector<Node> args;
    // Resolved once after parsing (resolve()): what eval switches on.
    Code code = Code::num;
    size_t slot = 0;       // name: index into slots_
    DType from;            // convert: the operand's dtype; select: the comparison's
    double num_f = 0;      // num: the text as a double, as a float, and as an unsigned integer (decimal or hex)
    float num_f32 = 0;
    uint64_t num_u = 0;
    int mode = 0;          // convert: 0 trunc/wrap, 1 nearest, 2 floor, 3 ceil, 4 sat
  };

  void resolve(Node& n) {
    static const std::map<std::string, Code> kCodes = {
        {"num", Code::num}, {"name", Code::name}, {"neg", Code::neg}, {"/", Code::div}, {"+", Code::add}, {"-", Code::sub},
        {"*", Code::mul}, {"&", Code::bit_and}, {"|", Code::bit_or}, {"^", Code::bit_xor}, {"~", Code::bit_not}, {"<<", Code::shl},
        {">>", Code::shr}, {"min", Code::min}, {"max", Code::max}, {"relu", Code::relu}, {"clamp", Code::clamp}, {"abs", Code::abs},
        {"fma", Code::fma}, {"convert", Code::convert}, {"select", Code::select}, {"<", Code::lt}, {">", Code::gt},
        {"<=", Code::le}, {">=", Code::ge}, {"==", Code::eq}, {"!=", Code::ne}, {"sqrt", Code::sqrt},
        {"floor", Code::floor}, {"ceil", Code::ceil}, {"trunc", Code::trunc}, {"nearest", Code::nearest},
        {"add_sat", Code::add_sat}, {"sub_sat", Code::sub_sat}, {"avg_round", Code::avg_round}, {"abs_diff", Code::abs_diff}, {"popcount", Code::popcount},
        {"exp", Code::exp}, {"exp2", Code::exp2}, {"expm1", Code::expm1}, {"log", Code::log}, {"log2", Code::log2}, {"log1p", Code::log1p}, {"recip", Code::recip}, {"rsqrt", Code::rsqrt}, {"sin", Code::sin}, {"cos", Code::cos},
        {"sigmoid", Code::sigmoid}, {"tanh", Code::tanh}, {"erf", Code::erf}, {"gelu", Code::gelu}, {"gelu_tanh", Code::gelu_tanh}};
    const auto it = kCodes.find(n.op);
    if (it == kCodes.end()) fail("unknown operation " + n.op);
    n.code = it->second;
    if (n.code >= Code::exp) approximate_ = true;  // exp and the functions after it
    if (n.code == Code::name) {
      if (!inputs_.count(n.text)) fail("unknown name " + n.text);
      const auto at = std::find(slots_.begin(), slots_.end(), n.text);
      n.slot = size_t(at - slots_.begin());
      if (at == slots_.end()) slots_.push_back(n.text);
      return;
    }
    if (n.code == Code::num) {
      n.num_f = std::strtod(n.text.c_str(), nullptr);  // both stop at an f suffix
      n.num_f32 = std::strtof(n.text.c_str(), nullptr);  // rounded once (not through a double)
      const bool hex = n.text.size() > 1 && (n.text[1] == 'x' || n.text[1] == 'X');
      n.num_u = hex ? std::strtoull(n.text.c_str() + 2, nullptr, 16) : std::strtoull(n.text.c_str(), nullptr, 10);
      return;
    }
    if (n.code == Code::convert) {
      if (!dtype_of(n.args.at(0), n.from)) fail("convert of a number");
      const std::string m = n.args.size() > 2 ? n.args[2].text : "";
      n.mode = m == "nearest" ? 1 : m == "floor" ? 2 : m == "ceil" ? 3 : m == "sat" ? 4 : 0;
      resolve(n.args[0]);  // args 1 and 2 are the dtype and mode names
      return;
    }
    if (n.code == Code::select && !dtype_of(n.args.at(0), n.from)) fail("comparison without an input");
    if (n.code == Code::shl || n.code == Code::shr) {
      resolve(n.args.at(0));
      resolve(n.args.at(1));
      if (n.args[1].code != Code::num) fail("a shift count must be a number");
      return;
    }
    for (Node& a : n.args) resolve(a);
  }

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
  static Value convert(DType from, DType to, Value x, int mode) {
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
      const double y = mode == 1 ? std::nearbyint(x.f) : mode == 2 ? std::floor(x.f) : mode == 3 ? std::ceil(x.f) : std::trunc(x.f);
      if (y <= double(lo)) v = lo;
      else if (y >= double(hi)) v = hi;  // beyond 2^53 every double is an integer and double(hi) is the next power of two
      else v = __int128(y);
    } else {
      v = from.kind == 'i' ? __int128(int64_t(x.u)) : __int128(x.u);
      if (mode == 4) v = v < lo ? lo : v > hi ? hi : v;
    }
    r.u = wrap(to, uint64_t(v));
    return r;
  }

  static Value number(const Node& n, bool negative, DType t) {
    Value v;
    if (t.is_float()) v.f = (negative ? -1 : 1) * (t.bits == 32 ? double(n.num_f32) : n.num_f);
    else v.u = wrap(t, negative ? 0 - n.num_u : n.num_u);
    return v;
  }

  static bool less(DType t, Value a, Value b) {
    if (t.is_float()) return a.f < b.f;
    return t.kind == 'i' ? int64_t(a.u) < int64_t(b.u) : a.u < b.u;
  }
  static bool equal(DType t, Value a, Value b) { return t.is_float() ? a.f == b.f : a.u == b.u; }

  Value eval(const Node& n, DType t, const Value* slot) const {
    auto arg = [&](size_t k) { return eval(n.args[k], t, slot); };
    Value r;
    switch (n.code) {
      case Code::num: return number(n, false, t);
      case Code::name: return slot[n.slot];
      case Code::neg: {  // floats: the sign bit flips (zeros, NaN); integers: 0 - a, wrapping
        if (n.args[0].code == Code::num) return number(n.args[0], true, t);
        const Value a = arg(0);
        if (t.is_float()) r.f = -a.f;
        else r.u = wrap(t, 0 - a.u);
        return r;
      }
      case Code::div: {  // floats only: correctly rounded in the dtype (an f32 quotient is rounded once)
        const Value a = arg(0), b = arg(1);
        r.f = t.bits == 32 ? double(float(a.f) / float(b.f)) : a.f / b.f;
        return r;
      }
      case Code::add: case Code::sub: case Code::mul: {
        const Value a = arg(0), b = arg(1);
        if (t.is_float())
          r.f = round_to(t, n.code == Code::add ? a.f + b.f : n.code == Code::sub ? a.f - b.f : a.f * b.f);
        else
          r.u = wrap(t, n.code == Code::add ? a.u + b.u : n.code == Code::sub ? a.u - b.u : a.u * b.u);
        return r;
      }
      case Code::bit_and: case Code::bit_or: case Code::bit_xor: {
        const Value a = arg(0), b = arg(1);
        r.u = wrap(t, n.code == Code::bit_and ? a.u & b.u : n.code == Code::bit_or ? a.u | b.u : a.u ^ b.u);
        return r;
      }
      case Code::bit_not: r.u = wrap(t, ~arg(0).u); return r;
      case Code::shl: case Code::shr: {  // the count is a number
        const Value a = arg(0);
        const unsigned count = unsigned(n.args[1].num_u);
        if (n.code == Code::shl) r.u = wrap(t, a.u << count);
        else r.u = t.kind == 'i' ? wrap(t, uint64_t(int64_t(a.u) >> count)) : a.u >> count;
        return r;
      }
      case Code::min: case Code::max: {
        const Value a = arg(0), b = arg(1);
        return n.code == Code::min ? (less(t, a, b) ? a : b) : (less(t, b, a) ? a : b);
      }
      case Code::relu: {
        const Value a = arg(0), zero{};
        return less(t, zero, a) ? a : zero;
      }
      case Code::clamp: {
        const Value x = arg(0), lo = arg(1), hi = arg(2);
        const Value m = less(t, lo, x) ? x : lo;
        return less(t, m, hi) ? m : hi;
      }
      case Code::abs: {
        const Value a = arg(0);
        if (t.is_float()) r.f = std::fabs(a.f);
        else r.u = t.kind == 'i' && int64_t(a.u) < 0 ? wrap(t, 0 - a.u) : a.u;
        return r;
      }
      case Code::fma: {
        const Value a = arg(0), b = arg(1), c = arg(2);
        r.f = t.bits == 32 ? double(std::fma(float(a.f), float(b.f), float(c.f))) : std::fma(a.f, b.f, c.f);
        return r;
      }
      case Code::exp: case Code::exp2: case Code::expm1: case Code::log: case Code::log2: case Code::log1p: case Code::recip: case Code::rsqrt: case Code::sin: case Code::cos: case Code::sigmoid: case Code::tanh: case Code::erf:
      case Code::gelu: case Code::gelu_tanh: {
        // In long double, then rounded to the dtype.
        const long double a = (long double)arg(0).f;
        const long double v = simdgen_math_test::math_reference<long double>(n.op, a);  // n.op: the function's name
        r.f = round_to(t, double(v));
        return r;
      }
      case Code::sqrt: {  // std::sqrt of a float is correctly rounded in float
        const Value a = arg(0);
        r.f = t.bits == 32 ? double(std::sqrt(float(a.f))) : std::sqrt(a.f);
        return r;
      }
      case Code::add_sat: case Code::sub_sat: case Code::avg_round: {
        // In 128-bit integers: every sum and difference of two 64-bit values is exact there.
        const Value a = arg(0), b = arg(1);
        const bool s = t.kind == 'i';
        const __int128 x = s ? __int128(int64_t(a.u)) : __int128(a.u), y = s ? __int128(int64_t(b.u)) : __int128(b.u);
        const __int128 lo = s ? -(__int128(1) << (t.bits - 1)) : 0, hi = (__int128(1) << (t.bits - (s ? 1 : 0))) - 1;
        __int128 v;
        if (n.code == Code::avg_round) {
          const __int128 sum = x + y + 1;  // floor division by 2 of a possibly negative number
          v = sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
        } else {
          v = n.code == Code::add_sat ? x + y : x - y;
          v = v < lo ? lo : v > hi ? hi : v;
        }
        r.u = wrap(t, uint64_t(v));
        return r;
      }
      case Code::abs_diff: {
        const Value a = arg(0), b = arg(1);
        if (t.is_float()) {
          r.f = std::fabs(round_to(t, a.f - b.f));
          return r;
        }
        const bool s = t.kind == 'i';
        const __int128 x = s ? __int128(int64_t(a.u)) : __int128(a.u), y = s ? __int128(int64_t(b.u)) : __int128(b.u);
        r.u = wrap(t, uint64_t(x > y ? x - y : y - x));
        return r;
      }
      case Code::popcount: {  // the low t.bits bits (a signed value is held sign-extended)
        const uint64_t bits = t.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << t.bits) - 1;
        uint64_t x = arg(0).u & bits;
        r.u = 0;
        for (; x; x &= x - 1) ++r.u;
        return r;
      }
      case Code::floor: r.f = std::floor(arg(0).f); return r;
      case Code::ceil: r.f = std::ceil(arg(0).f); return r;
      case Code::trunc: r.f = std::trunc(arg(0).f); return r;
      case Code::nearest: r.f = std::nearbyint(arg(0).f); return r;  // the default rounding mode: ties to even
      case Code::convert: return convert(n.from, t, eval(n.args[0], n.from, slot), n.mode);
      case Code::select: {
        const Node& c = n.args[0];
        const Value a = eval(c.args[0], n.from, slot), b = eval(c.args[1], n.from, slot);
        bool yes = false;
        switch (c.code) {
          case Code::lt: yes = less(n.from, a, b); break;
          case Code::gt: yes = less(n.from, b, a); break;
          case Code::le: yes = less(n.from, a, b) || equal(n.from, a, b); break;
          case Code::ge: yes = less(n.from, b, a) || equal(n.from, a, b); break;
          case Code::eq: yes = equal(n.from, a, b); break;
          default: yes = !equal(n.from, a, b); break;
        }
        return yes ? arg(1) : arg(2);
      }
      default: fail("unknown operation " + n.op);
    }
  }

  std::string text_;
  std::vector<std::string> slots_;
  std::map<std::string, DType> inputs_;
  size_t at_ = 0;
  Node root_;
  bool approximate_ = false;
  DType result_;
};

}  // namespace simdgen_ref::map
