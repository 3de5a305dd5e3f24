// SPDX-License-Identifier: Apache-2.0
// Two passes: the text becomes an untyped tree with source offsets, then the tree is typed from
// the inputs' dtypes and the output's, which gives numbers their dtype; integer idioms are then
// recognised (map_idioms.h).
#include "spec/map_expr.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>

#include "spec/float_literal.h"
#include "spec/map_idioms.h"

namespace simdgen {

namespace {

// The functions and their argument counts (convert takes 2 or 3: checked on its own).
struct Function {
  const char* name;
  std::size_t arity;
};
constexpr Function kFunctionTable[] = {{"fma", 3},  {"min", 2},     {"max", 2},     {"clamp", 3}, {"relu", 1},  {"abs", 1},
                                       {"select", 3}, {"convert", 0}, {"sqrt", 1}, {"floor", 1}, {"ceil", 1}, {"trunc", 1},
                                       {"nearest", 1}, {"add_sat", 2}, {"sub_sat", 2}, {"avg_round", 2}, {"abs_diff", 2}, {"popcount", 1},
                                       {"exp", 1}, {"exp2", 1}, {"expm1", 1}, {"log", 1}, {"log2", 1}, {"log1p", 1}, {"recip", 1}, {"rsqrt", 1}, {"sin", 1}, {"cos", 1}, {"sigmoid", 1}, {"tanh", 1}, {"erf", 1}, {"gelu", 1}, {"gelu_tanh", 1}};

std::optional<MathFn> mathFnNamed(const std::string& name) {
  for (MathFn f : kAllMathFns)
    if (name == nameOf(f)) return f;
  return std::nullopt;
}
std::string functionList() {
  std::string out;
  for (const Function& f : kFunctionTable) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

const Function* functionNamed(const std::string& name) {
  for (const Function& f : kFunctionTable)
    if (name == f.name) return &f;
  return nullptr;
}

struct Node {
  std::string kind;  // "num", "name", "call", "+", "-", "*", "neg", "<", "<=", ...
  std::string text;  // number text, name, function name
  std::size_t at = 0;
  std::vector<Node> args;
};

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
 public:
  explicit Lexer(const std::string& t) : s_(t) {}
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  std::size_t pos() {
    skip();
    return i_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (s_.compare(i_, tok.size(), tok) != 0) return false;
    // "<" must not take the first half of "<=" or "<<", "&" of "&&" (refused by the parser)
    if (tok.size() == 1 && i_ + 1 < s_.size()) {
      const char next = s_[i_ + 1];
      if ((tok == "<" || tok == ">") && (next == '=' || next == tok[0])) return false;
      if ((tok == "&" || tok == "|") && next == tok[0]) return false;
    }
    i_ += tok.size();
    return true;
  }
  bool atEnd() { return pos() >= s_.size(); }
  char peek() { return atEnd() ? '\0' : s_[i_]; }
  std::string name() {
    const std::size_t b = pos();
    while (i_ < s_.size() && isNameChar(s_[i_])) ++i_;
    return s_.substr(b, i_ - b);
  }
  std::string number() {
    const std::size_t b = pos();
    if (s_[i_] == '0' && i_ + 1 < s_.size() && (s_[i_ + 1] == 'x' || s_[i_ + 1] == 'X')) {
      i_ += 2;
      while (i_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      if (i_ == b + 2) throw ExprError(b, "a hexadecimal number needs digits after 0x");
      if (i_ < s_.size() && (isNameChar(s_[i_]) || s_[i_] == '.'))
        throw ExprError(i_, "unexpected character '" + std::string(1, s_[i_]) + "' in a hexadecimal number");
      return s_.substr(b, i_ - b);
    }
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    if (i_ == b + 1 && s_[b] == '.') throw ExprError(b, "a number needs digits before or after its '.'");
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      std::size_t k = i_ + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && std::isdigit(static_cast<unsigned char>(s_[k]))) {
        i_ = k;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      }
    }
    // C's float suffix: 1.5f, 3.40282347e+38f (a number with a '.' or an exponent; f32 operands only).
    const bool decimal = s_.find_first_of(".eE", b) < i_;
    if (decimal && i_ < s_.size() && (s_[i_] == 'f' || s_[i_] == 'F') && (i_ + 1 == s_.size() || !isNameChar(s_[i_ + 1]))) ++i_;
    if (i_ < s_.size() && isNameChar(s_[i_]))
      throw ExprError(i_, "unexpected character '" + std::string(1, s_[i_]) + "' in a number" +
                              (s_[i_] == 'f' || s_[i_] == 'F' ? " (the suffix f follows a '.' or an exponent: 1.0f, 1e3f)" : ""));
    return s_.substr(b, i_ - b);
  }
  std::size_t size() const { return s_.size(); }

 private:
  const std::string& s_;
  std::size_t i_ = 0;
};

class Parser {
 public:
  explicit Parser(const std::string& t) : lx_(t) {}

  Node parseAll() {
    if (lx_.atEnd()) throw ExprError(0, "empty expression; expected a number, an input name or a function call");
    Node n = expr();
    if (!lx_.atEnd()) {
      const std::size_t at = lx_.pos();
      throw ExprError(at, "unexpected '" + std::string(1, lx_.peek()) + "'; expected an operator (+ - * / & | ^ << >>), ')' or the end");
    }
    return n;
  }

 private:
  // Left-associative chains of binary operators, loosest first (C's order).
  Node expr() { return chain({"|"}, &Parser::bitXor, "||"); }
  Node bitXor() { return chain({"^"}, &Parser::bitAnd, ""); }
  Node bitAnd() { return chain({"&"}, &Parser::shift, "&&"); }
  Node shift() { return chain({"<<", ">>"}, &Parser::sum, ""); }
  Node chain(const std::vector<std::string>& ops, Node (Parser::*next)(), const std::string& logical) {
    Node n = (this->*next)();
    for (;;) {
      const std::size_t at = lx_.pos();
      if (!logical.empty() && lx_.eat(logical))
        throw ExprError(at, "'" + logical + "' is not an operator here: conditions go in select(cond, a, b), and '" + logical.substr(1) +
                                "' is the bitwise operator on integers");
      std::string op;
      for (const std::string& o : ops)
        if (lx_.eat(o)) op = o;
      if (op.empty()) return n;
      n = Node{op, "", at, {std::move(n), (this->*next)()}};
    }
  }
  Node sum() {
    Node n = term();
    for (;;) {
      const std::size_t at = lx_.pos();
      std::string op = lx_.eat("+") ? "+" : lx_.eat("-") ? "-" : "";
      if (op.empty()) return n;
      n = Node{op, "", at, {std::move(n), term()}};
    }
  }
  Node term() {
    Node n = unary();
    for (;;) {
      const std::size_t at = lx_.pos();
      const std::string op = lx_.eat("*") ? "*" : lx_.eat("/") ? "/" : "";
      if (op.empty()) return n;
      n = Node{op, "", at, {std::move(n), unary()}};
    }
  }
  Node unary() {
    const std::size_t at = lx_.pos();
    if (lx_.eat("-")) return Node{"neg", "", at, {unary()}};
    if (lx_.eat("~")) return Node{"~", "", at, {unary()}};
    return primary();
  }
  Node primary() {
    const std::size_t at = lx_.pos();
    const char c = lx_.peek();
    if (c == '(') {
      lx_.eat("(");
      Node n = expr();
      expect(")", "to close the '(' at column " + std::to_string(at + 1));
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Node{"num", lx_.number(), at, {}};
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::string name = lx_.name();
      if (!lx_.eat("(")) return Node{"name", name, at, {}};
      Node call{"call", name, at, {}};
      if (name == "select") {
        call.args.push_back(condition());
      } else {
        call.args.push_back(expr());
      }
      while (lx_.eat(",")) call.args.push_back(expr());
      expect(")", "to close the call of " + name + "()");
      return call;
    }
    if (c == '\0') throw ExprError(at, "the expression ends early; expected a number, an input name, a function call or '('");
    throw ExprError(at, "unexpected '" + std::string(1, c) + "'; expected a number, an input name, a function call or '('");
  }
  Node condition() {
    Node a = expr();
    const std::size_t at = lx_.pos();
    for (const char* op : {"<=", ">=", "==", "!=", "<", ">"})
      if (lx_.eat(op)) return Node{op, "", at, {std::move(a), expr()}};
    throw ExprError(at, "select's first argument is a comparison; expected one of < <= > >= == != here");
  }
  void expect(const std::string& tok, const std::string& why) {
    const std::size_t at = lx_.pos();
    if (!lx_.eat(tok)) {
      std::string found = "the end";
      if (!lx_.atEnd()) found = std::string(1, '\'').append(1, lx_.peek()).append(1, '\'');  // not "'" + ...: GCC 12 -Wrestrict (PR105329)
      throw ExprError(at, "expected '" + tok + "' " + why + ", found " + found);
    }
  }
  Lexer lx_;
};

// ---- typing ---------------------------------------------------------------------------------

// A hexadecimal number's value in decimal digits (too large for 64 bits: an error).
std::string decimalOfHex(const Node& num) {
  if (num.text.size() - 2 > 16 && num.text.find_first_not_of('0', 2) < num.text.size() - 16)
    throw ExprError(num.at, "number " + num.text + " does not fit in 64 bits");
  return std::to_string(std::stoull(num.text.substr(2), nullptr, 16));
}

std::string cLiteral(const Node& num, bool negative, DType t) {
  const bool hex = num.text.size() > 1 && (num.text[1] == 'x' || num.text[1] == 'X');
  if (hex && isFloat(t))
    throw ExprError(num.at, "hexadecimal number " + num.text + " is an integer, but the operand's dtype is " + std::string(nameOf(t)));
  const std::string s = hex ? decimalOfHex(num) : num.text;
  const bool integral = s.find_first_of(".eE") == std::string::npos;
  if (isFloat(t)) {
    // Rounded as C's strtof / strtod round it; written as the shortest decimal of that value.
    const std::string sign = negative ? "-" : "";
    std::string digits = s;
    if (digits.back() == 'f' || digits.back() == 'F') {
      if (t != DType::f32)
        throw ExprError(num.at, "number " + sign + num.text + " has C's suffix f (a float constant), but the operand's dtype is " +
                                    std::string(nameOf(t)) + "; write it without the suffix");
      digits.pop_back();
    }
    const std::optional<double> v = roundDecimal(digits, t);
    if (!v)
      throw ExprError(num.at, "number " + sign + num.text + " is out of range for " + std::string(nameOf(t)) + ": it rounds to " + sign +
                                  "infinity (the largest finite " + std::string(nameOf(t)) + " is " + std::string(largestFiniteText(t)) +
                                  "; the expression language has no infinity)");
    return cFloatLiteral(negative ? -*v : *v, t);
  }
  if (!integral) throw ExprError(num.at, "number " + s + " is not an integer, but the operand's dtype is " + std::string(nameOf(t)));
  const int bits = bitsOf(t);
  const unsigned __int128 hi = (unsigned __int128)1 << (isSigned(t) ? bits - 1 : bits);  // |min| for signed
  unsigned __int128 v = 0;
  for (char c : s) {
    v = v * 10 + unsigned(c - '0');
    if (v > ((unsigned __int128)1 << 64)) break;
  }
  const bool ok = negative ? (isSigned(t) && v <= hi) || v == 0 : v <= hi - 1;
  if (!ok)
    throw ExprError(num.at, "number " + std::string(negative ? "-" : "") + num.text + " is not representable in " + std::string(nameOf(t)));
  if (bits == 64 && negative && v == hi) return "(-9223372036854775807ll - 1)";
  std::string digits;
  for (unsigned __int128 x = v; x || digits.empty(); x /= 10) digits.insert(digits.begin(), char('0' + int(x % 10)));
  return (negative && v ? "-" : "") + digits + (bits == 64 ? (isSigned(t) ? "ll" : "ull") : "");
}

struct Typer {
  const std::vector<MapInputName>& inputs;
  const std::vector<MapInputName>& params;
  const std::vector<MapValueName>& values;

  // The input (op input), scalar parameter (op param) or earlier output (op row_value; an
  // element-wise one: op literal, value index in the second member) a name denotes.
  std::pair<MapOp, int> lookup(const Node& n) const {
    for (std::size_t k = 0; k < inputs.size(); ++k)
      if (inputs[k].name == n.text) return {MapOp::input, int(k)};
    for (std::size_t k = 0; k < params.size(); ++k)
      if (params[k].name == n.text) return {MapOp::param, int(k)};
    for (std::size_t k = 0; k < values.size(); ++k)
      if (values[k].name == n.text) return {values[k].elementwise ? MapOp::literal : MapOp::row_value, int(k)};
    std::string names;
    for (const auto& i : inputs) names += (names.empty() ? "" : ", ") + i.name;
    std::string scalars;
    for (const auto& p : params) scalars += (scalars.empty() ? "" : ", ") + p.name;
    const bool fn = functionNamed(n.text) != nullptr;
    std::string earlier;
    for (const auto& v : values) earlier += (earlier.empty() ? "" : ", ") + v.name;
    throw ExprError(n.at, "unknown name '" + n.text + "'" + (fn ? " (a function: call it with parentheses)" : constantHint(n.text)) +
                              "; the inputs are: " + names + (scalars.empty() ? "" : "; the params are: " + scalars) +
                              (earlier.empty() ? "" : "; the outputs listed before this one are: " + earlier));
  }
  // C's names of float constants are not in the language: what to write instead.
  static std::string constantHint(const std::string& name) {
    std::string lower;
    for (char c : name) lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "inf" || lower == "infinity" || lower == "huge_val" || lower == "huge_valf" || lower == "nan")
      return " (the expression language has no infinity or NaN constants)";
    static const std::pair<const char*, const char*> limits[] = {{"FLT_MAX", "3.40282347e+38"}, {"FLT_MIN", "1.17549435e-38"},
                                                                 {"DBL_MAX", "1.7976931348623157e+308"}, {"DBL_MIN", "2.2250738585072014e-308"}};
    for (const auto& [macro, value] : limits)
      if (name == macro) return std::string(" (write the number: ") + value + ")";
    return "";
  }
  DType dtypeOf(const Node& n) const {
    const auto [op, k] = lookup(n);
    if (op == MapOp::input) return inputs[size_t(k)].dtype;
    return op == MapOp::param ? params[size_t(k)].dtype : values[size_t(k)].dtype;
  }

  static bool isNum(const Node& n) { return n.kind == "num" || (n.kind == "neg" && isNum(n.args[0])); }

  // The dtype the node has by its inputs; nullopt when it is made of numbers only.
  std::optional<DType> infer(const Node& n) const {
    if (n.kind == "num") return std::nullopt;
    if (n.kind == "name") return dtypeOf(n);
    if (n.kind == "neg" || n.kind == "~" || n.kind == "<<" || n.kind == ">>") return infer(n.args[0]);  // a shift count is a number
    if (n.kind == "call") checkCall(n);
    if (n.kind == "call" && n.text == "convert") return convertTarget(n).first;
    std::size_t first = n.kind == "call" && n.text == "select" ? 1 : 0;
    if (n.kind == "call" && n.text == "select") infer(n.args[0]);  // checks the condition's operands
    std::optional<DType> t;
    const Node* from = nullptr;
    for (std::size_t k = first; k < n.args.size(); ++k) {
      const auto a = infer(n.args[k]);
      if (!a) continue;
      if (t && *t != *a)
        throw ExprError(n.args[k].at, "this operand of " + what(n) + " has dtype " + std::string(nameOf(*a)) +
                                          " but an earlier one (column " + std::to_string(from->at + 1) + ") has " +
                                          std::string(nameOf(*t)) +
                                          "; all operands of one operation have one dtype (convert one of them: convert(x, " +
                                          std::string(nameOf(*t)) + "))");
      t = a, from = &n.args[k];
    }
    return t;
  }

  static std::string what(const Node& n) {
    if (n.kind == "call") return n.text + "()";
    return "'" + n.kind + "'";
  }

  static void checkCall(const Node& n) {
    if (const Function* f = functionNamed(n.text); f && f->arity > 0) {
      if (n.args.size() != f->arity)
        throw ExprError(n.at, n.text + "() takes " + std::to_string(f->arity) + " argument" + (f->arity > 1 ? "s" : "") + ", found " +
                                  std::to_string(n.args.size()));
      return;
    }
    if (n.text == "convert") {
      if (n.args.size() != 2 && n.args.size() != 3)
        throw ExprError(n.at, "convert() takes 2 or 3 arguments (convert(x, dtype) or convert(x, dtype, mode)), found " +
                                  std::to_string(n.args.size()));
      return;
    }
    if (n.text == "cast") throw ExprError(n.at, "unknown function 'cast'; write convert(x, dtype) or convert(x, dtype, mode)");
    throw ExprError(n.at, "unknown function '" + n.text + "'; allowed functions: " + functionList());
  }

  static constexpr const char* kDTypeNames = "i8, u8, i16, u16, i32, u32, i64, u64, f32, f64";

  // convert(x, dtype[, mode]): the destination dtype and the mode (checked against x's dtype).
  std::pair<DType, ConvMode> convertTarget(const Node& n) const {
    const Node& d = n.args[1];
    const std::optional<DType> to = d.kind == "name" ? parseDType(d.text) : std::nullopt;
    if (!to)
      throw ExprError(d.at, "convert()'s second argument is a dtype, one of: " + std::string(kDTypeNames) + "");
    const auto from = infer(n.args[0]);
    if (!from)
      throw ExprError(n.args[0].at, "convert() of a number: write the number in the expression where a " + std::string(nameOf(*to)) +
                                        " is expected instead");
    const bool fi = isFloat(*from), ti = !isFloat(*to);
    // The modes this conversion accepts, the default first.
    std::vector<ConvMode> allowed;
    std::string kind;
    if (fi && ti) {
      allowed = {ConvMode::trunc, ConvMode::nearest, ConvMode::floor, ConvMode::ceil};
      kind = "a float to an integer";
    } else if (!fi && ti && (bitsOf(*to) < bitsOf(*from) || isSigned(*to) != isSigned(*from))) {
      allowed = {ConvMode::wrap, ConvMode::sat};
      kind = "an integer to a narrower integer or one of the other signedness";
    }
    if (n.args.size() < 3) return {*to, allowed.empty() ? ConvMode::plain : allowed.front()};
    const Node& m = n.args[2];
    const std::optional<ConvMode> mode = m.kind == "name" ? parseConvMode(m.text) : std::nullopt;
    if (!mode)
      throw ExprError(m.at, "convert()'s third argument is a mode: wrap or sat (integer to narrower integer or other signedness), "
                            "trunc, nearest, floor or ceil (float to integer)");
    if (allowed.empty())
      throw ExprError(m.at, "convert() from " + std::string(nameOf(*from)) + " to " + std::string(nameOf(*to)) +
                                " takes no mode (" +
                                (isFloat(*to) ? "a conversion to a float rounds to nearest, ties to even"
                                              : "widening keeps the value: sign- or zero-extension by the source's signedness") +
                                "); write convert(x, " + std::string(nameOf(*to)) + ")");
    if (std::find(allowed.begin(), allowed.end(), *mode) == allowed.end()) {
      std::string names;
      for (ConvMode a : allowed) names += (names.empty() ? "" : ", ") + std::string(nameOf(a));
      throw ExprError(m.at, "mode " + m.text + " does not apply to a conversion from " + std::string(nameOf(*from)) + " to " +
                                std::string(nameOf(*to)) + " (" + kind + "); allowed: " + names);
    }
    return {*to, *mode};
  }

  MapExpr make(MapOp op, DType t, std::vector<MapExpr> args) const { return MapExpr{op, t, "", -1, std::move(args)}; }

  MapExpr build(const Node& n, DType t) const {
    if (n.kind == "num") return MapExpr{MapOp::literal, t, cLiteral(n, false, t), -1, {}};
    if (n.kind == "neg") {
      if (n.args[0].kind == "num") return MapExpr{MapOp::literal, t, cLiteral(n.args[0], true, t), -1, {}};
      return make(MapOp::neg, t, {build(n.args[0], t)});
    }
    if (n.kind == "name") {
      const auto [op, k] = lookup(n);
      if (op == MapOp::literal) return *values[size_t(k)].elementwise;  // an element-wise output: its expression
      if (op == MapOp::row_value) return MapExpr{op, t, "", values[size_t(k)].output, {}};
      return MapExpr{op, t, "", k, {}};
    }
    if (n.kind == "/" && !isFloat(t))
      throw ExprError(n.at, "'/' is defined on floats only, but its operands are " + std::string(nameOf(t)) +
                                " (no SIMD integer division; multiply by a float reciprocal instead)");
    if (n.kind == "&" || n.kind == "|" || n.kind == "^" || n.kind == "~" || n.kind == "<<" || n.kind == ">>") return bitwise(n, t);
    if (n.kind == "+" || n.kind == "-" || n.kind == "*" || n.kind == "/") {
      const MapOp op = n.kind == "+" ? MapOp::add : n.kind == "-" ? MapOp::sub : n.kind == "*" ? MapOp::mul : MapOp::div;
      return make(op, t, {build(n.args[0], t), build(n.args[1], t)});
    }
    if (n.kind == "call") {
      auto arg = [&](std::size_t k) { return build(n.args[k], t); };
      if (n.text == "fma") {
        if (!isFloat(t)) throw ExprError(n.at, "fma() is defined on floats, but its operands are " + std::string(nameOf(t)) + "; write a * b + c for integers");
        return make(MapOp::fma, t, {arg(0), arg(1), arg(2)});
      }
      if (n.text == "min" || n.text == "max") return make(n.text == "min" ? MapOp::min : MapOp::max, t, {arg(0), arg(1)});
      if (n.text == "clamp") return make(MapOp::min, t, {make(MapOp::max, t, {arg(0), arg(1)}), arg(2)});
      if (n.text == "relu") return make(MapOp::max, t, {arg(0), MapExpr{MapOp::literal, t, isFloat(t) ? (t == DType::f32 ? "0.0f" : "0.0") : "0", -1, {}}});
      if (n.text == "abs") return make(MapOp::abs, t, {arg(0)});
      if (n.text == "sqrt" || n.text == "floor" || n.text == "ceil" || n.text == "trunc" || n.text == "nearest") {
        if (!isFloat(t))
          throw ExprError(n.at, n.text + "() is defined on floats, but its operand is " + std::string(nameOf(t)) +
                                    (n.text == "sqrt" ? " (convert it to a float first: sqrt(convert(x, f32)))"
                                                      : " (an integer is already integral; convert(x, " + std::string(nameOf(t)) + ", " +
                                                            n.text + ") rounds a float to an integer)"));
        if (n.text == "sqrt") return make(MapOp::sqrt, t, {arg(0)});
        MapExpr e = make(MapOp::round, t, {arg(0)});
        e.mode = *parseConvMode(n.text);
        return e;
      }
      if (const std::optional<MathFn> fn = mathFnNamed(n.text)) {
        if (!isFloat(t))
          throw ExprError(n.at, n.text + "() is defined on floats (f32, f64), but its operand is " + std::string(nameOf(t)) +
                                    " (convert it first: " + n.text + "(convert(x, f32)))");
        MapExpr e = make(MapOp::math, t, {arg(0)});
        e.fn = *fn;
        return e;
      }
      if (n.text == "add_sat" || n.text == "sub_sat" || n.text == "avg_round") {
        if (isFloat(t))
          throw ExprError(n.at, n.text + "() is defined on integers, but its operands are " + std::string(nameOf(t)) +
                                    (n.text == "avg_round" ? " (write (a + b) * 0.5 for floats)"
                                                           : " (float arithmetic does not wrap: write a " + std::string(n.text == "add_sat" ? "+" : "-") +
                                                                 " b)"));
        const MapOp op = n.text == "add_sat" ? MapOp::add_sat : n.text == "sub_sat" ? MapOp::sub_sat : MapOp::avg_round;
        return make(op, t, {arg(0), arg(1)});
      }
      if (n.text == "abs_diff") return make(MapOp::abs_diff, t, {arg(0), arg(1)});
      if (n.text == "popcount") {
        if (isFloat(t))
          throw ExprError(n.at, "popcount() counts the set bits of an integer, but its operand is " + std::string(nameOf(t)) +
                                    " (a float's bits: not offered; convert it to an integer first if its value is meant)");
        return make(MapOp::popcount, t, {arg(0)});
      }
      if (n.text == "select") return make(MapOp::select, t, {condition(n.args[0]), arg(1), arg(2)});
      if (n.text == "convert") {
        const auto [to, mode] = convertTarget(n);
        if (to != t)
          throw ExprError(n.at, "this convert() yields " + std::string(nameOf(to)) + " where " + std::string(nameOf(t)) + " is expected");
        MapExpr e = make(MapOp::convert, t, {build(n.args[0], *infer(n.args[0]))});
        e.mode = mode;
        return e;
      }
    }
    // A comparison anywhere but as select's condition.
    throw ExprError(n.at, "a comparison is allowed only as the first argument of select(cond, a, b)");
  }

  // & | ^ ~ << >>: integers only; a shift count is a number below the value's bits.
  MapExpr bitwise(const Node& n, DType t) const {
    const std::string op = n.kind;
    if (isFloat(t))
      throw ExprError(n.at, "'" + op + "' is defined on integers only, but its operand" + (op == "~" ? " is " : "s are ") + std::string(nameOf(t)) +
                                " (convert to an integer type first)");
    if (op == "~") return make(MapOp::bit_not, t, {build(n.args[0], t)});
    if (op == "<<" || op == ">>") {
      const Node& c = n.args[1];
      const int bits = bitsOf(t);
      const std::string range = "a number from 0 to " + std::to_string(bits - 1) + " (the bits of " + std::string(nameOf(t)) + " minus 1)";
      const bool hex = c.text.find_first_of("xX") != std::string::npos;
      if (c.kind != "num" || (!hex && c.text.find_first_of(".eE") != std::string::npos))
        throw ExprError(c.at, "a shift count is " + range);
      const uint64_t count = hex ? std::stoull(decimalOfHex(c)) : c.text.size() > 18 ? ~uint64_t{0} : std::stoull(c.text);
      if (count >= uint64_t(bits)) throw ExprError(c.at, "shift count " + c.text + " is out of range: a shift count is " + range);
      MapExpr e = make(op == "<<" ? MapOp::shl : MapOp::shr, t, {build(n.args[0], t)});
      e.count = int(count);
      return e;
    }
    const MapOp m = op == "&" ? MapOp::bit_and : op == "|" ? MapOp::bit_or : MapOp::bit_xor;
    return make(m, t, {build(n.args[0], t), build(n.args[1], t)});
  }

  MapExpr condition(const Node& c) const {
    static const std::pair<const char*, MapOp> ops[] = {{"<", MapOp::lt},  {"<=", MapOp::le}, {">", MapOp::gt},
                                                        {">=", MapOp::ge}, {"==", MapOp::eq}, {"!=", MapOp::ne}};
    const auto t = infer(c);
    if (!t) throw ExprError(c.at, "this comparison has numbers on both sides; compare an input with something");
    for (const auto& [sym, op] : ops)
      if (c.kind == sym) return make(op, *t, {build(c.args[0], *t), build(c.args[1], *t)});
    throw ExprError(c.at, "expected a comparison");
  }
};

}  // namespace

std::string_view nameOf(MapOp op) {
  static const char* names[] = {"literal", "input", "param", "+", "-", "*", "min", "max", "/", "neg", "fma", "abs", "select", "convert",
                                "<",       "<=",    ">",     ">=", "==", "!=", "&",   "|", "^",      "~",   "<<",     ">>",
                                "sqrt",    "round", "add_sat", "sub_sat", "avg_round", "abs_diff", "popcount", "math", "row_value"};
  return names[static_cast<int>(op)];
}

std::string mathTierUnavailable(const MapExpr& e, int maxUlp) {
  if (e.op == MapOp::math && (e.fn == MathFn::sigmoid || e.fn == MathFn::tanh) && e.type == DType::f64 && maxUlp <= 1)
    return std::string(nameOf(e.fn)) + "() of f64 is offered within 4 ULP only (f32 within 1 or 4): set \"max_ulp\": 4 (docs/math.md)";
  if (e.op == MapOp::math && (e.fn == MathFn::erf || e.fn == MathFn::gelu || e.fn == MathFn::gelu_tanh) && e.type == DType::f64)
    return std::string(nameOf(e.fn)) + "() is offered for f32 only (within 1 ULP), not yet for f64 (docs/math.md)";
  if (e.op == MapOp::math && (e.fn == MathFn::sin || e.fn == MathFn::cos) && e.type == DType::f64)
    return std::string(nameOf(e.fn)) + "() is offered for f32 only (within 1 or 4 ULP): f64 needs a reduction of arguments up to 2^1024 that is not built yet (docs/math.md)";
  for (const MapExpr& a : e.args)
    if (std::string why = mathTierUnavailable(a, maxUlp); !why.empty()) return why;
  return "";
}

std::string_view nameOf(MathFn f) {
  switch (f) {
    case MathFn::exp: return "exp";
    case MathFn::exp2: return "exp2";
    case MathFn::log: return "log";
    case MathFn::log2: return "log2";
    case MathFn::expm1: return "expm1";
    case MathFn::log1p: return "log1p";
    case MathFn::recip: return "recip";
    case MathFn::rsqrt: return "rsqrt";
    case MathFn::sin: return "sin";
    case MathFn::cos: return "cos";
    case MathFn::sigmoid: return "sigmoid";
    case MathFn::tanh: return "tanh";
    case MathFn::erf: return "erf";
    case MathFn::gelu: return "gelu";
    case MathFn::gelu_tanh: return "gelu_tanh";
  }
  return "?";
}

MapExpr parseMapExpr(const std::string& text, const std::vector<MapInputName>& inputs,
                     const std::vector<MapInputName>& params, DType result, const std::vector<MapValueName>& values) {
  const Node root = Parser(text).parseAll();
  const Typer typer{inputs, params, values};
  if (const auto t = typer.infer(root); t && *t != result)
    throw ExprError(root.at, "the expression has dtype " + std::string(nameOf(*t)) + " but the output is " + std::string(nameOf(result)) +
                                 "; convert it: convert(..., " + std::string(nameOf(result)) + ")");
  return recognizeIdioms(typer.build(root, result));
}

std::string toString(const MapExpr& e, const std::vector<MapInputName>& inputs, const std::vector<MapInputName>& params) {
  auto arg = [&](std::size_t k) { return toString(e.args[k], inputs, params); };
  switch (e.op) {
    case MapOp::literal: return e.text;
    case MapOp::input: return inputs[size_t(e.input)].name;
    case MapOp::param: return params[size_t(e.input)].name;
    case MapOp::row_value: return "row_value(" + std::to_string(e.input) + ")";
    case MapOp::neg: return "(-" + arg(0) + ")";
    case MapOp::add:
    case MapOp::sub:
    case MapOp::div:
    case MapOp::mul: return "(" + arg(0) + " " + std::string(nameOf(e.op)) + " " + arg(1) + ")";
    case MapOp::min: return "min(" + arg(0) + ", " + arg(1) + ")";
    case MapOp::max: return "max(" + arg(0) + ", " + arg(1) + ")";
    case MapOp::fma: return "fma(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ")";
    case MapOp::abs: return "abs(" + arg(0) + ")";
    case MapOp::sqrt: return "sqrt(" + arg(0) + ")";
    case MapOp::add_sat:
    case MapOp::sub_sat:
    case MapOp::avg_round:
    case MapOp::abs_diff: return std::string(nameOf(e.op)) + "(" + arg(0) + ", " + arg(1) + ")";
    case MapOp::popcount: return "popcount(" + arg(0) + ")";
    case MapOp::round: return std::string(nameOf(e.mode)) + "(" + arg(0) + ")";
    case MapOp::math: return std::string(nameOf(e.fn)) + "(" + arg(0) + ")";
    case MapOp::bit_and:
    case MapOp::bit_or:
    case MapOp::bit_xor: return "(" + arg(0) + " " + std::string(nameOf(e.op)) + " " + arg(1) + ")";
    case MapOp::bit_not: return "(~" + arg(0) + ")";
    case MapOp::shl:
    case MapOp::shr: return "(" + arg(0) + " " + std::string(nameOf(e.op)) + " " + std::to_string(e.count) + ")";
    case MapOp::select: return "select(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ")";
    case MapOp::convert:
      return "convert(" + arg(0) + ", " + std::string(nameOf(e.type)) +
             (e.mode == ConvMode::plain ? "" : ", " + std::string(nameOf(e.mode))) + ")";
    default: return arg(0) + " " + std::string(nameOf(e.op)) + " " + arg(1);
  }
}

}  // namespace simdgen
